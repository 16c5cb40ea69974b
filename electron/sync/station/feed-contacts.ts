/**
 * The contacts of a page of the hub's feed, at a station: each linked to the local contact it
 * is (sync_links), or added under the hub's id; brought to the hub's values except where this
 * station's own intent wins (a field changed here and not pushed yet, or pushed after the page
 * was read: the feed brings it back); a field this station changed and pushed that the hub now
 * holds otherwise lost to a later change elsewhere — the hub's value is taken and a notice
 * written (notices.ts), never dropped silently. Deleted contacts go, unless something of them
 * still waits here to be pushed: then the gift wins, and the donor goes back to the hub
 * (donor-back.ts).
 */
import {
  applyEventContactDetail,
  applyEventCustomValues,
  type EventContactDetail,
  deleteEventContact,
  insertPulledContact,
  pulledContactFields,
  type PulledContactFields,
  refreshPulledContact,
} from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { contactReferenceOf } from '#shared/sync-reference.ts';
import { linkRemote, localIdFor, remoteIdFor, unlinkRemote } from '../outbox/links.ts';
import { unpushedContactFields } from '../outbox/unpushed-fields.ts';
import { bringDonorBack, waitsHere } from './donor-back.ts';
import { addNotice } from './notices.ts';

export interface FeedCounts {
  contacts: number;
  gifts: number;
  deleted: number;
  reference: number;
  notices: number;
  /** Records the page had that could not be written here (with why, in `notes`). */
  skipped: number;
  /** Gifts kept until what they name is here (feed-gifts.ts). */
  held: number;
  notes: string[];
}

export function emptyCounts(): FeedCounts {
  return { contacts: 0, gifts: 0, deleted: 0, reference: 0, notices: 0, skipped: 0, held: 0, notes: [] };
}

/** A donor as the feed carries it: the read shape (a hub of an earlier version may send less). */
export type FeedContact = Omit<EventContactDetail, 'customFields'> & {
  customFields?: Record<string, string | number> | undefined;
};

/** Whether a contact of this id is in the account here. */
async function contactHere(trx: Db, accountId: string, id: string): Promise<boolean> {
  const r = await trx
    .selectFrom('contacts')
    .select('id')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * A local contact the hub's one already is, not linked yet: this station's own, which its
 * reference tag names (the engine links it by the create's answer).
 *
 * A create of this station's not answered yet with the same name and email is not taken for
 * it: the hub may hold that name twice (its own window does not merge), and a donor typed here
 * without an email is never matched by the hub at all, so the hub's donor would never reach
 * this station. The hub's donor is written as a copy; when the hub answers the create with it,
 * the two become one (links.ts's twin copy, or push/fold-donor.ts).
 */
async function ownUnlinked(trx: Db, accountId: string, c: FeedContact): Promise<boolean> {
  const ref = contactReferenceOf(c.tags);
  return ref !== null && (await ownNotLinked(trx, accountId, ref.slice(3)));
}

/**
 * Whether this station's own contact of that id is here and linked to no hub contact. One still
 * linked to another hub id is the copy of a donor the hub deleted, brought back at the hub since
 * under the same reference (donor-back.ts): the page's deletion of the old one comes after its
 * donors, so the donor it brings is written here as the hub's.
 */
async function ownNotLinked(trx: Db, accountId: string, id: string): Promise<boolean> {
  return (await contactHere(trx, accountId, id)) && (await remoteIdFor(trx, 'contact', id)) === null;
}

/**
 * The reference a contact of the feed was created with at the GiftDesk that typed it (another
 * station's donor carries that station's `gd:` tag), kept as this copy's origin reference: if
 * this station ever has to send it on itself (replace.ts, after its hub was lost), it goes
 * under that reference, which the hubs and HQ know it by.
 */
async function keepOrigin(trx: Db, accountId: string, c: FeedContact): Promise<void> {
  const ref = contactReferenceOf(c.tags);
  if (ref === null || (await ownNotLinked(trx, accountId, ref.slice(3)))) return;
  await trx
    .insertInto('contactSyncReferences')
    .values({ accountId, reference: ref, contactId: c.id })
    .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing())
    .execute();
}

/**
 * A local contact, not linked to any hub contact, whose origin reference is this contact's
 * (a copy the old hub's feed brought, met again at a replacement hub): its id; 'engine' when
 * its create to the hub is still unconfirmed (the engine links it by the answer); else null.
 */
async function sameOrigin(trx: Db, accountId: string, c: FeedContact): Promise<string | 'engine' | null> {
  const ref = contactReferenceOf(c.tags);
  if (ref === null) return null;
  const row = await trx
    .selectFrom('contactSyncReferences')
    .select('contactId')
    .where('accountId', '=', accountId)
    .where('reference', '=', ref)
    .executeTakeFirst();
  if (!row || !(await contactHere(trx, accountId, row.contactId))) return null;
  const linked = await trx
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('entityType', '=', 'contact')
    .where('localId', '=', row.contactId)
    .executeTakeFirst();
  if (linked) return null;
  const unsent = await trx
    .selectFrom('changeLog')
    .select('seq')
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where('entityId', '=', row.contactId)
    .where('op', '=', 'create')
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .executeTakeFirst();
  return unsent ? 'engine' : row.contactId;
}

/**
 * The fields of a contact this station changed and the hub confirmed, each with when: an
 * update pushed before the page was read and since overtaken, or after it (then kept).
 */
async function pushedEdits(trx: Db, accountId: string, localId: string): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('changeLog')
    .select(['fields', 'syncedAt'])
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where('entityId', '=', localId)
    .where('op', '=', 'update')
    .where('push', '=', 1)
    .where('syncedAt', 'is not', null)
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.fields === null || r.syncedAt === null) continue;
    for (const f of JSON.parse(r.fields) as string[]) {
      const prev = out.get(f);
      if (!prev || prev < r.syncedAt) out.set(f, r.syncedAt);
    }
  }
  return out;
}

const SHOWN: Record<string, keyof PulledContactFields> = {
  firstName: 'firstName',
  lastName: 'lastName',
  primaryEmail: 'email',
  primaryPhone: 'phone',
  organization: 'organization',
};
const ALIASES: Record<string, string> = { emailAddresses: 'primaryEmail', phoneNumbers: 'primaryPhone' };

/** The contact's shown values here, for comparing with the hub's. */
async function shownValues(trx: Db, localId: string): Promise<PulledContactFields | null> {
  const r = await trx
    .selectFrom('contacts')
    .select(['firstName', 'lastName', 'email', 'phone', 'organization'])
    .where('id', '=', localId)
    .executeTakeFirst();
  return r ?? null;
}

/** Brings a linked contact to the hub's values (see the top), with notices for edits that lost. */
async function refreshLinked(
  trx: Db,
  accountId: string,
  localId: string,
  f: PulledContactFields,
  pending: Set<string> | 'all' | undefined,
  edits: Map<string, string>,
  readAt: string,
  at: string,
  counts: FeedCounts,
): Promise<void> {
  const keep = new Set<string>(pending === 'all' ? [] : (pending ?? []));
  if (pending === 'all') {
    await refreshPulledContact(trx, accountId, localId, f, 'all', at);
    return;
  }
  const lost: Array<{ field: string; mine: string | null; theirs: string | null }> = [];
  const here = await shownValues(trx, localId);
  for (const [raw, when] of edits) {
    const field = ALIASES[raw] ?? raw;
    const key = SHOWN[field];
    if (!key || keep.has(raw) || keep.has(field)) continue;
    // Pushed after this page was read: the page is older than the hub's value; the feed brings it.
    if (when >= readAt) {
      keep.add(field);
      continue;
    }
    if (here && here[key] !== f[key]) lost.push({ field, mine: here[key], theirs: f[key] });
  }
  const r = await refreshPulledContact(trx, accountId, localId, f, keep, at);
  if (r.kind !== 'updated') return;
  counts.contacts++;
  for (const l of lost)
    if (r.fields.includes(l.field as (typeof r.fields)[number])) {
      await addNotice(trx, { accountId, contactId: localId, ...l }, at);
      counts.notices++;
    }
}

/** One contact of the page. */
async function applyContact(
  trx: Db,
  accountId: string,
  c: FeedContact,
  readAt: string,
  at: string,
  counts: FeedCounts,
) {
  const f = pulledContactFields(c);
  if ('problem' in f) {
    counts.skipped++;
    counts.notes.push(`The hub sent a contact that cannot be stored (${f.problem}); it was skipped`);
    return;
  }
  let localId = await localIdFor(trx, accountId, 'contact', c.id);
  if (localId === null) {
    if (await ownUnlinked(trx, accountId, c)) return;
    const origin = await sameOrigin(trx, accountId, c);
    if (origin === 'engine') return;
    if (origin !== null)
      await linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: origin,
        remoteId: c.id,
        source: 'pulled',
        at,
      });
    localId = origin;
  }
  if (localId === null) {
    if (!(await contactHere(trx, accountId, c.id))) {
      await insertPulledContact(trx, accountId, f, at, c.id);
      counts.contacts++;
    }
    await linkRemote(trx, {
      accountId,
      entityType: 'contact',
      localId: c.id,
      remoteId: c.id,
      source: 'pulled',
      at,
    });
    await keepOrigin(trx, accountId, c);
    if (c.customFields) await applyEventCustomValues(trx, accountId, c.id, c.customFields, () => false, at);
    await applyEventContactDetail(trx, accountId, c.id, c, () => false, at);
    return;
  }
  const pending = (await unpushedContactFields(trx, accountId, [localId])).get(localId);
  const edits = pending === 'all' ? new Map<string, string>() : await pushedEdits(trx, accountId, localId);
  await refreshLinked(trx, accountId, localId, f, pending, edits, readAt, at, counts);
  if (pending !== 'all') {
    // A field pushed after this page was read is newer than the page's value: the feed brings it.
    const kept = (field: string) => (pending?.has(field) ?? false) || (edits.get(field) ?? '') >= readAt;
    const written = await applyEventContactDetail(trx, accountId, localId, c, kept, at);
    if (written.length > 0) counts.contacts++;
  }
  if (c.customFields && pending !== 'all') {
    const written = await applyEventCustomValues(
      trx,
      accountId,
      localId,
      c.customFields,
      (k) => pending?.has(k) ?? false,
      at,
    );
    if (written.length > 0) counts.contacts++;
  }
}

/** The page's contacts. */
export async function applyFeedContacts(
  trx: Db,
  accountId: string,
  contacts: readonly FeedContact[],
  readAt: string,
  at: string,
  counts: FeedCounts,
): Promise<void> {
  for (const c of contacts) await applyContact(trx, accountId, c, readAt, at, counts);
}

/**
 * The page's deleted contacts: each goes, unless something of it still waits here; then it is
 * brought back at the hub (donor-back.ts).
 */
export async function applyFeedDeletions(
  trx: Db,
  accountId: string,
  deleted: readonly string[],
  at: string,
  counts: FeedCounts,
): Promise<void> {
  for (const hubId of deleted) {
    const localId = await localIdFor(trx, accountId, 'contact', hubId);
    if (localId === null) continue;
    if (await waitsHere(trx, accountId, localId)) {
      // The gift wins: the donor goes back to the hub with what waits of it (donor-back.ts).
      if (await bringDonorBack(trx, accountId, localId, at))
        counts.notes.push(
          `A donor deleted at the hub still had changes waiting here; it goes back to the hub`,
        );
      continue;
    }
    if (await deleteEventContact(trx, accountId, localId, at)) counts.deleted++;
    await unlinkRemote(trx, 'contact', localId);
  }
}

/**
 * The hub's answer to this station's create of a donor, taken in the answer's transaction: the
 * donor it made (201: its times, which the feed's echo may have brought before the create was
 * linked here, and then skipped), or one it holds already (200: the same donor typed at another
 * table, or this create's earlier attempt that landed late; the hub wrote nothing of this
 * create). The record here becomes the hub's donor, values and times — the feed may never bring
 * that donor again. Fields changed here after the create (updates not sent yet) are kept: they
 * go to the hub next.
 */
export async function takeHubDonor(
  trx: Db,
  accountId: string,
  localId: string,
  answer: unknown,
  at: string,
): Promise<void> {
  if (answer === null || typeof answer !== 'object' || typeof (answer as { id?: unknown }).id !== 'string')
    return;
  const c = answer as FeedContact;
  const f = pulledContactFields(c);
  if ('problem' in f) return;
  const kept = new Set<string>();
  const updates = await trx
    .selectFrom('changeLog')
    .select('fields')
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where('entityId', '=', localId)
    .where('op', '=', 'update')
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .execute();
  for (const u of updates) {
    if (u.fields === null) return;
    for (const field of JSON.parse(u.fields) as string[]) kept.add(field);
  }
  const isKept = (field: string) => kept.has(field);
  await refreshPulledContact(trx, accountId, localId, f, kept, at);
  await applyEventContactDetail(trx, accountId, localId, c, isKept, at);
  if (c.customFields) await applyEventCustomValues(trx, accountId, localId, c.customFields, isKept, at);
}
