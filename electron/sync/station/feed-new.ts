/**
 * The records of a feed page that are plainly new here, written together. A station joining an
 * event reads the whole event (100,000 donors and 300,000 gifts are 800 pages of 500), and one
 * by one a donor costs some twenty statements and a gift a dozen. A record is plainly new when
 * what the one-by-one path (feed-contacts.ts, feed-gifts.ts) looks up for it, read here with a
 * query per kind for the whole page, sends it down that path's plain branch:
 *
 * - a donor: storable, not linked, not here under the hub's id, not this station's own (its
 *   `gd:` reference names no contact here, no unlinked create of this station's has its name),
 *   and its reference not kept here for another copy;
 * - a gift: not linked, not here under the hub's id, not this station's own coming back, its
 *   sync reference not held here, and everything it names here (its donor, credited contact and
 *   host, campaign, committee, donation account; by link or under the hub's id).
 *
 * Those are written with the rows the one-by-one path leaves (domain/pulled: insertEventContacts,
 * insertEventGifts) and linked under their own ids; every other record of the page goes the
 * one-by-one way, after them. Should two records of one page name each other (one's reference
 * is another's id, or two carry one reference) the order of the page would matter, so that page
 * goes wholly the one-by-one way.
 */
import { sql } from 'kysely';
import { contactReferenceOf, donationReferenceOf } from '#shared/sync-reference.ts';
import { insertObjects } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import type { EntityType } from '../../domain/change-log.ts';
import {
  type EventGift,
  type NewEventContact,
  insertEventContacts,
  insertEventGifts,
  pulledContactFields,
} from '../../domain/pulled/index.ts';
import type { FeedContact, FeedCounts } from './feed-contacts.ts';
import { type FeedGift, localizedWith } from './feed-gifts.ts';

/** Ids per `in (…)`. */
const SLICE = 500;

async function sliced<T>(ids: readonly string[], read: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += SLICE) out.push(...(await read(unique.slice(i, i + SLICE))));
  return out;
}

/** The hub's records of one kind linked here: hub id → local id. */
async function linkedHere(
  trx: Db,
  accountId: string,
  entityType: EntityType,
  hubIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await sliced(hubIds, (s) =>
    trx
      .selectFrom('syncLinks')
      .select(['remoteId', 'localId'])
      .where('accountId', '=', accountId)
      .where('entityType', '=', entityType)
      .where('remoteId', 'in', s)
      .execute(),
  );
  return new Map(rows.map((r) => [r.remoteId, r.localId]));
}

type Table = 'contacts' | 'donations' | 'campaigns' | 'committees' | 'donationAccounts';

/** Which of these ids the account has in a table. */
async function idsHere(
  trx: Db,
  table: Table,
  accountId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  // By id alone, the account tested on the rows: with the account in the query SQLite walks an
  // index of the account's every record for each page.
  const rows = await sliced(ids, (s) =>
    trx.selectFrom(table).select(['id', 'accountId']).where('id', 'in', s).execute(),
  );
  return new Set(rows.filter((r) => r.accountId === accountId).map((r) => r.id));
}

/** Which of these sync references the account keeps, for contacts or gifts. */
async function referencesHere(
  trx: Db,
  table: 'contactSyncReferences' | 'donationSyncReferences',
  accountId: string,
  refs: readonly string[],
): Promise<Set<string>> {
  const rows = await sliced(refs, (s) =>
    trx
      .selectFrom(table)
      .select('reference')
      .where('accountId', '=', accountId)
      .where('reference', 'in', s)
      .execute(),
  );
  return new Set(rows.map((r) => r.reference));
}

/**
 * The names of this station's own contact creates not linked yet (read off their index, a
 * handful at most): a donor of the feed with one of these names may be one of them, and is
 * matched the one-by-one way (feed-contacts.ts ownUnlinked).
 */
async function ownUnlinkedNames(trx: Db, accountId: string): Promise<Set<string>> {
  const rows = await trx
    .selectFrom('changeLog as l')
    .innerJoin('contacts as c', 'c.id', 'l.entityId')
    .select(['c.firstName', 'c.lastName'])
    .where('l.accountId', '=', accountId)
    .where('l.entityType', '=', sql.lit('contact'))
    .where('l.op', '=', sql.lit('create'))
    .where('l.push', '=', sql.lit(1))
    .where('c.accountId', '=', accountId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('syncLinks as s')
            .select('s.localId')
            .where('s.entityType', '=', 'contact')
            .whereRef('s.localId', '=', 'c.id'),
        ),
      ),
    )
    .execute();
  return new Set(rows.map((r) => nameKey(r.firstName, r.lastName)));
}

const nameKey = (first: string, last: string) => `${first.toLowerCase()}\u0000${last.toLowerCase()}`;

/** Whether some value occurs twice, or is one of `others`. */
function collides(values: readonly string[], others: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v) || others.has(v)) return true;
    seen.add(v);
  }
  return false;
}

/** Writes the page's plainly new donors (see the top); returns the hub ids written. */
export async function applyNewContacts(
  trx: Db,
  accountId: string,
  contacts: readonly FeedContact[],
  at: string,
  counts: FeedCounts,
): Promise<Set<string>> {
  const done = new Set<string>();
  if (contacts.length < 2) return done;
  const ids = contacts.map((c) => c.id);
  const refs = contacts.flatMap((c) => contactReferenceOf(c.tags) ?? []);
  if (collides(refs, new Set()) || collides(ids, new Set(refs.map((r) => r.slice(3))))) return done;
  const linked = await linkedHere(trx, accountId, 'contact', ids);
  const here = await idsHere(trx, 'contacts', accountId, [...ids, ...refs.map((r) => r.slice(3))]);
  const kept = await referencesHere(trx, 'contactSyncReferences', accountId, refs);
  const own = await ownUnlinkedNames(trx, accountId);
  const fresh: NewEventContact[] = [];
  const refOf = new Map<string, string>();
  for (const c of contacts) {
    const fields = pulledContactFields(c);
    if ('problem' in fields || linked.has(c.id) || here.has(c.id)) continue;
    if (own.has(nameKey(fields.firstName, fields.lastName))) continue;
    const ref = contactReferenceOf(c.tags);
    if (ref !== null && (here.has(ref.slice(3)) || kept.has(ref))) continue;
    if (ref !== null) refOf.set(c.id, ref);
    fresh.push({ c, fields });
  }
  if (fresh.length === 0) return done;
  await insertEventContacts(trx, accountId, fresh, at);
  // Linked under their own ids, as linkRemote links them (no link holds these hub ids yet, so
  // it would merge no copy); each one's origin reference kept, as keepOrigin keeps it.
  await insertObjects(
    trx,
    'syncLinks',
    fresh.map(({ c }) => ({
      entityType: 'contact',
      localId: c.id,
      accountId,
      remoteId: c.id,
      source: 'pulled',
      linkedAt: at,
    })),
  );
  await insertObjects(
    trx,
    'contactSyncReferences',
    fresh.flatMap(({ c }) => {
      const reference = refOf.get(c.id);
      return reference === undefined ? [] : [{ accountId, reference, contactId: c.id }];
    }),
  );
  for (const { c } of fresh) done.add(c.id);
  counts.contacts += fresh.length;
  return done;
}

const KINDS = [
  ['contact', 'contacts'],
  ['campaign', 'campaigns'],
  ['committee', 'committees'],
  ['donationAccount', 'donationAccounts'],
] as const;
type Kind = (typeof KINDS)[number][0];

/** The hub ids of each kind the gifts name. */
function named(g: FeedGift): Array<[Kind, string]> {
  const out: Array<[Kind, string | null | undefined]> = [
    ['contact', g.contactId],
    ['contact', g.onBehalfOfContactId],
    ['contact', g.facilitatedByContactId],
    ['campaign', g.campaignId],
    ['committee', g.committeeId],
    ['donationAccount', g.donationAccountId],
  ];
  return out.flatMap(([k, id]) => (id ? [[k, id] as [Kind, string]] : []));
}

/** Writes the page's plainly new gifts (see the top), in their order; returns the hub ids written. */
export async function applyNewGifts(
  trx: Db,
  accountId: string,
  gifts: readonly FeedGift[],
  at: string,
  counts: FeedCounts,
  /** The donors' totals left to donor_total_deltas (insertEventGifts), for the catch-up's end. */
  deferTotals = false,
): Promise<Set<string>> {
  const done = new Set<string>();
  if (gifts.length < 2) return done;
  const ids = gifts.map((g) => g.id);
  const refsOf = (g: FeedGift) => [
    ...new Set([g.reference, donationReferenceOf(g.notes)].filter((r): r is string => !!r)),
  ];
  const refs = gifts.flatMap(refsOf);
  const ownIds = refs.flatMap((r) => (r.startsWith('gd:') ? [r.slice(3)] : []));
  if (collides(refs, new Set()) || collides(ids, new Set(ownIds))) return done;
  const linked = await linkedHere(trx, accountId, 'donation', ids);
  const here = await idsHere(trx, 'donations', accountId, [...ids, ...ownIds]);
  const held = await referencesHere(trx, 'donationSyncReferences', accountId, refs);
  // What the gifts name, by link or under the hub's id, and whether it is here.
  const local = new Map<Kind, (hubId: string) => string | null>();
  for (const [kind, table] of KINDS) {
    const hubIds = gifts.flatMap((g) => named(g).flatMap(([k, id]) => (k === kind ? [id] : [])));
    const links = await linkedHere(trx, accountId, kind, hubIds);
    const present = await idsHere(trx, table, accountId, [...hubIds, ...links.values()]);
    local.set(kind, (hubId) => {
      const id = links.get(hubId) ?? hubId;
      return present.has(id) ? id : null;
    });
  }
  const fresh: Array<{ id: string; gift: EventGift }> = [];
  for (const g of gifts) {
    if (linked.has(g.id) || here.has(g.id)) continue;
    const gRefs = refsOf(g);
    if (gRefs.some((r) => held.has(r) || (r.startsWith('gd:') && here.has(r.slice(3))))) continue;
    // Anything not here: the one-by-one way holds the gift until it is.
    if (named(g).some(([k, id]) => local.get(k)!(id) === null)) continue;
    if (!g.campaignId && !g.committeeId && !g.donationAccountId) continue;
    fresh.push({ id: g.id, gift: localizedWith(accountId, g, (k, id) => (id ? local.get(k)!(id) : null)) });
  }
  if (fresh.length === 0) return done;
  await insertEventGifts(trx, accountId, fresh, at, { deferTotals });
  await insertObjects(
    trx,
    'syncLinks',
    fresh.map(({ id }) => ({
      entityType: 'donation',
      localId: id,
      accountId,
      remoteId: id,
      source: 'pulled',
      linkedAt: at,
    })),
  );
  for (const { id } of fresh) done.add(id);
  counts.gifts += fresh.length;
  return done;
}
