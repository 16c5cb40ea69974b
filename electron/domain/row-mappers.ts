/**
 * One mapper per table: how a stored row becomes the API's shape — cents as dollars, the
 * 0/1 columns as booleans — written once here and used by every reader of that table (the
 * API's reads, the CSV export, the sync's bodies for HQ). A reader that shows fewer fields
 * takes them from the mapper's result; a reader that selects only some columns of a
 * donation (the paged lists) converts them with donationAmountOf and donationFlagsOf.
 */
import type { Selectable } from 'kysely';
import { centsToDollars } from '#shared/money.ts';
import type {
  ContactAddressesTable,
  ContactEducationTable,
  ContactEmailsTable,
  ContactEmploymentTable,
  ContactNotesTable,
  ContactPhonesTable,
  DonationRow,
} from '../db/schema.ts';

/* ---------------- a contact's sub-records ---------------- */

export function phoneFromRow(p: Selectable<ContactPhonesTable>) {
  return { id: p.id, phoneNumber: p.phoneNumber, phoneType: p.phoneType, isPrimary: p.isPrimary === 1 };
}

export function emailFromRow(e: Selectable<ContactEmailsTable>) {
  return { id: e.id, emailAddress: e.emailAddress, emailType: e.emailType, isPrimary: e.isPrimary === 1 };
}

export function addressFromRow(a: Selectable<ContactAddressesTable>) {
  return {
    id: a.id,
    addressType: a.addressType,
    street1: a.street1,
    street2: a.street2,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode,
    country: a.country,
    isPrimary: a.isPrimary === 1,
  };
}

export function educationFromRow(e: Selectable<ContactEducationTable>) {
  return {
    id: e.id,
    institution: e.institution,
    degree: e.degree,
    fieldOfStudy: e.fieldOfStudy,
    graduationYear: e.graduationYear,
  };
}

export function employmentFromRow(e: Selectable<ContactEmploymentTable>) {
  return {
    id: e.id,
    employer: e.employer,
    title: e.title,
    occupation: e.occupation,
    startDate: e.startDate,
    endDate: e.endDate,
    isCurrent: e.isCurrent === 1,
  };
}

export function noteFromRow(n: Selectable<ContactNotesTable>) {
  return { id: n.id, content: n.content, noteType: n.noteType, createdAt: n.createdAt };
}

/* ---------------- donations ---------------- */

/** A stored amount (integer cents; PostgreSQL's bigint arrives as text) as the API's dollars. */
export const donationAmountOf = (amountCents: number | string | bigint): number =>
  centsToDollars(Number(amountCents));

/** A donation's 0/1 columns as the API's booleans. */
export function donationFlagsOf(r: Pick<DonationRow, 'isAnonymous' | 'isRecurring' | 'thankYouSent'>) {
  return {
    isAnonymous: r.isAnonymous === 1,
    isRecurring: r.isRecurring === 1,
    thankYouSent: r.thankYouSent === 1,
  };
}

/** A donation's own values as the API names and types them (the detail's fields but the joined ones). */
export function donationFromRow(r: DonationRow) {
  return {
    id: r.id,
    contactId: r.contactId,
    donationAmount: donationAmountOf(r.amountCents),
    donationDate: r.donationDate,
    paymentMethod: r.paymentMethod,
    status: r.status,
    campaignId: r.campaignId,
    committeeId: r.committeeId,
    donationAccountId: r.donationAccountId,
    electionType: r.electionType,
    electionYear: r.electionYear,
    onBehalfOfContactId: r.onBehalfOfContactId,
    facilitatedByContactId: r.facilitatedByContactId,
    ...donationFlagsOf(r),
    thankYouSentDate: r.thankYouSentDate,
    notes: r.notes,
    batchId: r.batchId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
