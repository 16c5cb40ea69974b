/**
 * The identity a record gets once, when it is typed, and that every attempt reuses, so that
 * after an unknown outcome the engine can tell whether HQ has it (pure; unit-tested).
 *
 * The id a reference names is the record's sync identity (sync-identity.ts): its own local id
 * when it was typed here, or the id of the GiftDesk where it was typed when it came from there
 * with that one's reference (a station's gift at its event hub). Every hop sends it under that
 * same reference, so each hop, and HQ, creates it once.
 *
 * - Donations: `gd:<id>` on the last line of `notes` (D7). Looked for among HQ's donations
 *   from the day before to the day after the gift's date (the list has no contact filter:
 *   contactId and the reference are matched here, D8).
 * - Contacts: the tag `gd:<id>`, the last of its `gd:` tags. The create carries it and so does
 *   every later PUT that sends tags (C2 replaces tags, so the engine always adds it back).
 *   After unknown creates the engine pages HQ's contacts newest first back to the earliest
 *   attempt (reconcile.ts), and reads the new candidates to find the tags. Local ids are ULIDs:
 *   unique, never reused, so the tag and the reference name exactly one record.
 *
 * The reference is parsed in one place, #shared/sync-reference.ts, which GiftDesk's own server
 * uses too: as HQ (or hub) it answers a create carrying a reference it already holds with that
 * record (200, nothing written), so a create it commits after our deadline is not doubled by
 * the post that reconcile releases, nor a gift that reaches it by two paths.
 */
import type { DonationListItem } from '#shared/schemas/donations.ts';
import {
  contactReferenceOf,
  donationReferenceOf,
  REFERENCE_PREFIX,
  referenceFor,
  referencesIn,
  referenceTagOwner,
} from '#shared/sync-reference.ts';

export { REFERENCE_PREFIX };

/** The tag that names a contact: `gd:<id>`, `id` its sync identity (sync-identity.ts). */
export function contactReferenceTag(id: string): string {
  return referenceFor(id);
}

/** The reference that names a gift: `gd:<id>`, `id` its sync identity (sync-identity.ts). */
export function donationReference(id: string): string {
  return referenceFor(id);
}

/**
 * The id the reference a gift's create carried names (its notes' last line), or null: what
 * reconcile looks for at HQ is what the attempt sent.
 */
export function sentDonationIdentity(notes: unknown): string | null {
  const ref = typeof notes === 'string' ? donationReferenceOf(notes) : null;
  return ref === null ? null : referenceTagOwner(ref);
}

/** The id the reference tag a contact's create carried names (its last `gd:` tag), or null. */
export function sentContactIdentity(tags: unknown): string | null {
  const ref = Array.isArray(tags) ? contactReferenceOf(tags) : null;
  return ref === null ? null : referenceTagOwner(ref);
}

/**
 * The notes HQ gets: the gift's own notes, then the reference on a line of its own — the last
 * line, where GiftDesk HQ reads it (`donationReferenceOf`, #shared/sync-reference.ts) to answer a
 * second create of this gift with the first. A gift that came with its origin's reference
 * already ends with it: its notes go unchanged.
 */
export function withDonationReference(notes: string | null, id: string): string {
  const ref = donationReference(id);
  if (notes === null || notes === '') return ref;
  if (donationReferenceOf(notes) === ref) return notes;
  return `${notes}\n${ref}`;
}

/**
 * Whether notes mention the reference of this id anywhere (a whole token: not a prefix of a
 * longer id). A mention is not the gift's reference (`donationReferenceOf`): never match by it.
 */
export function hasDonationReference(notes: string | null | undefined, id: string): boolean {
  return referencesIn(notes).includes(id);
}

/** Whether a contact's tags carry its reference tag. */
export function hasContactReference(tags: readonly string[] | null | undefined, localId: string): boolean {
  const id = localId.toLowerCase();
  return (tags ?? []).some((t) => referenceTagOwner(t)?.toLowerCase() === id);
}

/** What a donation attempt sent, as far as the list shows it. */
export interface SentDonation {
  /** The id its reference names: its sync identity (its own local id, or its origin's). */
  localId: string;
  contactId: string;
  donationAmount: number;
  donationDate: string;
  paymentMethod: string;
  campaignId: string | null;
}

export type DonationMatch =
  | { kind: 'found'; remoteId: string; duplicates: string[] }
  | { kind: 'lookalike'; remoteId: string }
  | { kind: 'absent' };

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

/** Whether notes carry a GiftDesk reference of any record (`gd:` then an id, a whole token): such a gift was posted by GiftDesk for that record. */
export function hasAnyDonationReference(notes: string | null | undefined): boolean {
  return referencesIn(notes).length > 0;
}

/**
 * Looks for the gift among HQ's donations. `found`: same contact and the gift's reference as
 * its notes' reference, their last line (`duplicates` lists any further copies); a mention of
 * it elsewhere in a gift's notes never makes that gift this one. `lookalike`: a gift of the
 * same contact that matches in every field the list shows but carries no GiftDesk reference at
 * all (staff typed it at HQ, or edited its notes) and is linked to no other local record — a
 * person decides. `absent`: safe to post again.
 *
 * What HQ holds for OTHER local records is never this gift: a gift carrying another record's
 * `gd:` reference, or one in `taken` (HQ ids linked to another local gift, pushed or found),
 * is skipped. Identical twin gifts — same donor, amount, minute, method and campaign — are
 * ordinary at events, and each must reach HQ once.
 */
export function matchDonation(
  items: readonly DonationListItem[],
  sent: SentDonation,
  taken: ReadonlySet<string> = new Set(),
): DonationMatch {
  const mine = items.filter((d) => d.contactId === sent.contactId);
  // By the gift's reference (its notes' last line), never a mention: a gift whose notes quote
  // `gd:<this id>` above its own reference line is the gift that reference names.
  const ref = donationReference(sent.localId);
  const found = mine.filter((d) => !taken.has(d.id) && donationReferenceOf(d.notes) === ref);
  if (found.length > 0)
    return { kind: 'found', remoteId: found[0]!.id, duplicates: found.slice(1).map((d) => d.id) };
  const look = mine.find(
    (d) =>
      !taken.has(d.id) &&
      !hasAnyDonationReference(d.notes) &&
      Math.round(d.donationAmount * 100) === Math.round(sent.donationAmount * 100) &&
      sameInstant(d.donationDate, sent.donationDate) &&
      d.paymentMethod === sent.paymentMethod &&
      (d.campaignId ?? null) === (sent.campaignId ?? null),
  );
  return look ? { kind: 'lookalike', remoteId: look.id } : { kind: 'absent' };
}

/** The date window (inclusive, date-only) HQ's donation list is searched in. */
export function donationSearchWindow(donationDate: string): { startDate: string; endDate: string } {
  const t = Date.parse(donationDate);
  const day = 86_400_000;
  return {
    startDate: new Date(t - day).toISOString().slice(0, 10),
    endDate: new Date(t + day).toISOString().slice(0, 10),
  };
}

/** Who a contact create attempt named, as HQ would show it in its list: names and the primary email. */
export interface SentContact {
  firstName: string;
  lastName: string;
  email: string | null;
}

/**
 * What a contact create attempt sent (its stored attempt body): HQ holds that, not the contact
 * as it is here now (edited or deleted since). Null for a body that is not a contact create.
 */
export function sentContactOf(attemptBody: string | null): SentContact | null {
  if (!attemptBody) return null;
  const b = JSON.parse(attemptBody) as {
    firstName?: unknown;
    lastName?: unknown;
    primaryEmail?: unknown;
    emailAddresses?: Array<{ emailAddress?: unknown; isPrimary?: unknown }>;
  };
  if (typeof b.firstName !== 'string' || typeof b.lastName !== 'string') return null;
  const sub = b.emailAddresses?.find((a) => a.isPrimary === true) ?? b.emailAddresses?.[0];
  const email =
    typeof b.primaryEmail === 'string'
      ? b.primaryEmail
      : typeof sub?.emailAddress === 'string'
        ? sub.emailAddress
        : null;
  return { firstName: b.firstName, lastName: b.lastName, email };
}
