/**
 * Request bodies for HQ, built from a record as it is at send time. Pure (unit-tested in
 * test/sync/payloads.test.ts). Local ids never leave: every reference is mapped to HQ's id
 * by the caller (the id map), and a reference with no HQ id stops the build (`missing`).
 */
import {
  CONTACT_COLLECTIONS,
  CONTACT_SCALAR_FIELDS,
  type Contact,
  type ContactCreateBody,
  type ContactUpdateBody,
} from '#shared/schemas/contacts.ts';
import type { DonationCreateBody, DonationCreateRequest } from '#shared/schemas/donations.ts';
import type { DonationRow } from '../../db/schema.ts';
import { donationAmountOf, donationFlagsOf } from '../../domain/row-mappers.ts';
import { contactReferenceTag, withDonationReference } from './identity.ts';

type Collections = Pick<ContactCreateBody, (typeof CONTACT_COLLECTIONS)[number]>;

/** Sub-records as the create/update bodies take them: no ids, no empty values. */
function collectionsOf(c: Contact): Required<Collections> {
  const defined = <T extends Record<string, unknown>>(o: T): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
  return {
    phoneNumbers: c.phoneNumbers.map(({ id: _id, ...x }) => defined(x)),
    emailAddresses: c.emailAddresses.map(({ id: _id, ...x }) => defined(x)),
    addresses: c.addresses.map(({ id: _id, ...x }) => defined(x)),
    education: c.education.map(({ id: _id, ...x }) => defined(x)),
    employment: c.employment.map(({ id: _id, ...x }) => defined(x)),
    notes: c.notes.map(({ id: _id, createdAt: _at, ...x }) => defined(x)),
  };
}

/**
 * Tags as HQ gets them: the contact's own, with its reference tag last (identity.ts). A contact
 * that came with its origin's tag keeps that one tag, last: no second `gd:` tag is added.
 */
function tagsWithReference(c: Contact, identity: string): string[] {
  const ref = contactReferenceTag(identity);
  return [...c.tags.filter((t) => t.toLowerCase() !== ref.toLowerCase()), ref];
}

/**
 * POST /v1/contacts: the whole record, with the reference tag. `identity`: the id the tag names,
 * the contact's sync identity (sync-identity.ts).
 */
export function contactCreateBody(c: Contact, identity: string, remoteAccountId: string): ContactCreateBody {
  const body: ContactCreateBody = {
    accountId: remoteAccountId,
    firstName: c.firstName,
    lastName: c.lastName,
    contactType: c.contactType,
    status: c.status,
  };
  const out = body as Record<string, unknown>;
  for (const f of CONTACT_SCALAR_FIELDS) {
    const v = c[f];
    if (v !== null && v !== undefined && v !== '') out[f] = v;
  }
  out.tags = tagsWithReference(c, identity);
  const cols = collectionsOf(c);
  for (const k of CONTACT_COLLECTIONS) if (cols[k].length > 0) out[k] = cols[k];
  if (Object.keys(c.customFields).length > 0) out.customFields = { ...c.customFields };
  return body;
}

/**
 * PUT /v1/contacts/:id with only the fields changed since the last push (C1): scalars by
 * name (null clears), collections whole (C3), tags whole with the reference tag (C2), custom
 * fields one by one (C4: `customFields.<name>` in the outbox; a cleared one goes as null).
 * `fields` null = every field (a change that covered the whole record). No accountId (C5).
 */
export function contactUpdateBody(
  c: Contact,
  identity: string,
  fields: readonly string[] | null,
): ContactUpdateBody {
  const out: Record<string, unknown> = {};
  const all = fields === null;
  const has = (f: string) => all || fields.includes(f);
  if (has('firstName')) out.firstName = c.firstName;
  if (has('lastName')) out.lastName = c.lastName;
  if (has('contactType')) out.contactType = c.contactType;
  if (has('status')) out.status = c.status;
  for (const f of CONTACT_SCALAR_FIELDS) if (has(f)) out[f] = c[f] ?? null;
  if (has('tags')) out.tags = tagsWithReference(c, identity);
  const cols = collectionsOf(c);
  for (const k of CONTACT_COLLECTIONS) if (has(k)) out[k] = cols[k];
  const custom = customFieldsToSend(c.customFields, fields);
  if (custom !== null && Object.keys(custom).length > 0) out.customFields = custom;
  return out as ContactUpdateBody;
}

/** The custom values an update sends; null when it sends none. */
export function customFieldsToSend(
  current: Contact['customFields'],
  fields: readonly string[] | null,
): Record<string, string | number | null> | null {
  if (fields === null) return { ...current };
  const named = fields
    .filter((f) => f.startsWith('customFields.'))
    .map((f) => f.slice('customFields.'.length));
  if (named.length === 0) {
    // A change that says only "customFields" (no names): send every value the contact has.
    return fields.includes('customFields') ? { ...current } : null;
  }
  const byKey = new Map(Object.entries(current).map(([k, v]) => [k.toLowerCase(), [k, v] as const]));
  const out: Record<string, string | number | null> = {};
  const seen = new Set<string>();
  for (const name of named) {
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const hit = byKey.get(key);
    if (hit) out[hit[0]] = hit[1];
    else out[name] = null; // cleared (or never set): clear it at HQ too
  }
  return out;
}

/** HQ ids of what a donation refers to; absent = not linked. */
export interface DonationRemoteIds {
  contactId?: string;
  campaignId?: string;
  committeeId?: string;
  donationAccountId?: string;
  onBehalfOfContactId?: string;
  facilitatedByContactId?: string;
}

export type DonationBodyResult =
  | { ok: true; body: DonationCreateBody | DonationCreateRequest }
  | { ok: false; missing: Array<{ field: keyof DonationRemoteIds; localId: string }> };

/**
 * POST /v1/donations, with `gd:<id>` in notes (D7), every reference mapped to HQ's id.
 * `identity`: the id the reference names, the gift's sync identity (sync-identity.ts).
 * `to`: 'hub' when this GiftDesk is a station sending to its event hub — then the body says
 * when the gift was entered here (`enteredAt`, GiftDesk's extension the hub keeps as the gift's
 * `createdAt`); an HQ never gets it.
 */
export function donationCreateBody(
  d: DonationRow,
  remote: DonationRemoteIds,
  remoteAccountId: string,
  identity: string,
  to: 'hq' | 'hub' = 'hq',
): DonationBodyResult {
  const missing: Array<{ field: keyof DonationRemoteIds; localId: string }> = [];
  const map = (field: keyof DonationRemoteIds, local: string | null): string | undefined => {
    if (local === null) return undefined;
    const r = remote[field];
    if (r === undefined) missing.push({ field, localId: local });
    return r;
  };
  const contactId = map('contactId', d.contactId);
  const body: DonationCreateBody = {
    accountId: remoteAccountId,
    contactId: contactId ?? '',
    donationAmount: donationAmountOf(d.amountCents),
    donationDate: d.donationDate,
    paymentMethod: d.paymentMethod,
    electionType: d.electionType,
    electionYear: d.electionYear,
    ...donationFlagsOf(d),
    notes: withDonationReference(d.notes, identity),
  };
  const refs = [
    ['campaignId', d.campaignId],
    ['committeeId', d.committeeId],
    ['donationAccountId', d.donationAccountId],
    ['onBehalfOfContactId', d.onBehalfOfContactId],
    ['facilitatedByContactId', d.facilitatedByContactId],
  ] as const;
  for (const [field, local] of refs) {
    const r = map(field, local);
    if (r !== undefined) body[field] = r;
  }
  if (d.thankYouSentDate) body.thankYouSentDate = d.thankYouSentDate;
  if (missing.length > 0) return { ok: false, missing };
  if (to === 'hub')
    return {
      ok: true,
      body: {
        ...body,
        enteredAt: d.createdAt,
        // Who typed it here: the hub keeps the person's name with the station's key.
        ...(d.enteredByName !== null ? { enteredByName: d.enteredByName } : {}),
      },
    };
  return { ok: true, body };
}
