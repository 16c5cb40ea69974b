/**
 * The entry row's form, pure: its values (the gift's fields and the inline new donor), what a
 * new gift starts with (the batch's defaults, or the values kept until changed), the batch
 * values the row depends on, the API's contact fields → the row's, and the inline new donor
 * as the contact the API creates. No React, no DOM.
 */
import type { Batch } from '#shared/schemas/batches.ts';
import type { useApi } from '../../api/provider.tsx';
import { localToday, orNull } from '../../forms.ts';
import type { GiftField, GiftFieldValues } from './gift-fields.tsx';
import { EMPTY_NEW_DONOR, type NewDonorValues } from './NewDonorFields.tsx';
import type { StickyField, StickyValuesOf } from './StickyValues.tsx';

/** The row: the gift's fields (shared with the correction dialog) and the inline new donor. */
export interface GiftForm extends GiftFieldValues {
  newDonor: NewDonorValues;
}
export type FormField = GiftField | `newDonor.${keyof NewDonorValues}`;

/** The API's contact fields → the inline new donor's (a refusal is shown at the field it names). */
export const CONTACT_FIELDS: Record<string, FormField> = {
  firstName: 'newDonor.firstName',
  lastName: 'newDonor.lastName',
  salutation: 'newDonor.salutation',
  primaryEmail: 'newDonor.email',
  primaryPhone: 'newDonor.phone',
  'addresses[0].street1': 'newDonor.street1',
  'addresses[0].city': 'newDonor.city',
  'addresses[0].state': 'newDonor.state',
  'addresses[0].postalCode': 'newDonor.postalCode',
  employer: 'newDonor.employer',
  occupation: 'newDonor.occupation',
};

/** A new gift's values: the kept values where there are some, else the batch's own; the rest empty. */
export function defaultsFrom(batch: Batch | null, sticky: Partial<GiftForm> = {}): GiftForm {
  return {
    amount: '',
    date: sticky.date ?? batch?.batchDate ?? localToday(),
    method: sticky.method ?? batch?.paymentMethod ?? 'check',
    campaignId: sticky.campaignId ?? batch?.campaignId ?? '',
    committeeId: sticky.committeeId ?? batch?.committeeId ?? '',
    donationAccountId: sticky.donationAccountId ?? batch?.donationAccountId ?? '',
    notes: '',
    isAnonymous: false,
    isRecurring: false,
    thankYouSent: false,
    onBehalfOfContactId: '',
    facilitatedByContactId: sticky.facilitatedByContactId ?? '',
    newDonor: EMPTY_NEW_DONOR,
  };
}

/** The batch's own values that the entry row starts each gift with, and its id. */
export const sameDefaults = (a: Batch, b: Batch) =>
  a.id === b.id &&
  a.batchDate === b.batchDate &&
  a.paymentMethod === b.paymentMethod &&
  a.campaignId === b.campaignId &&
  a.committeeId === b.committeeId &&
  a.donationAccountId === b.donationAccountId;

/** The values kept until changed, out of the row's (those not there yet: ''). */
export const stickyOf = (v: Partial<Record<StickyField, string>>): StickyValuesOf => ({
  date: v.date ?? '',
  method: v.method ?? '',
  campaignId: v.campaignId ?? '',
  committeeId: v.committeeId ?? '',
  donationAccountId: v.donationAccountId ?? '',
  facilitatedByContactId: v.facilitatedByContactId ?? '',
});

type ContactBody = Parameters<ReturnType<typeof useApi>['contacts']['create']>[0];

/** The inline new donor as the contact to create: what is filled in, the address only if any of it is. */
export function newDonorBody(n: NewDonorValues): ContactBody {
  const hasAddress = [n.street1, n.city, n.state, n.postalCode].some((x) => x.trim());
  return {
    firstName: n.firstName,
    lastName: n.lastName,
    salutation: orNull(n.salutation),
    primaryEmail: orNull(n.email),
    primaryPhone: orNull(n.phone),
    employer: orNull(n.employer),
    occupation: orNull(n.occupation),
    ...(hasAddress
      ? {
          addresses: [
            {
              street1: orNull(n.street1),
              city: orNull(n.city),
              state: orNull(n.state),
              postalCode: orNull(n.postalCode),
              isPrimary: true,
            },
          ],
        }
      : {}),
  };
}
