/**
 * The hub's change feed for its stations (GET /hub/changes): the event's ledger after a cursor,
 * a bounded page at a time. What the ledger holds is declared once, as a list of kinds
 * (ledger-kinds.ts), and this file loops over that list: the logged kinds (donors with every
 * sub-record, deleted donors, gifts) are the records the account's change log names after the
 * cursor, oldest first (every domain write appends to it in its own transaction); the snapshot
 * kinds (elections and the default election, letters, donation accounts, committees, campaigns,
 * custom fields, the event's stations) are small lists sent whole on the first read and whenever
 * one changed: the cursor carries each one's fingerprint.
 *
 * The cursor is the change log's sequence and, after it, one fingerprint per snapshot kind in
 * the list's order (`seq.fp.fp…`). A cursor with another number of fingerprints (a station of
 * an earlier version) has none: every list comes once. On SQLite commits happen one at a time in
 * sequence order, so a change the feed has not seen always has a higher sequence than the
 * cursor. On PostgreSQL sequence numbers are handed out before commit, so the read briefly
 * takes the change log in SHARE mode: it waits for the writes in flight and reads only once each
 * of them has committed or rolled back, so no change can commit later under a sequence the
 * cursor has passed.
 */
import { centsToDollars } from '#shared/money.ts';
import type {
  HubChanges,
  HubDonation,
  HubDonationFlag,
  HubDonationHistory,
  HubSnapshots,
} from '#shared/schemas/hub.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { Db, Store } from '../db/store.ts';
import { type DomainContext, invalidField } from '../domain/index.ts';
import {
  type LedgerKind,
  type LoggedPart,
  type AnySnapshotKind,
  type SnapshotName,
  ledgerKinds,
  skippedKinds,
} from './ledger-kinds.ts';

/** Changes read per page unless the station asks for another size (at most 2000). */
export const FEED_PAGE = 100;

export interface FeedCursor {
  seq: number;
  /** The fingerprint of each snapshot kind the station has, in the list's order (empty: none yet). */
  prints: string[];
}

/** A cursor as a station sends it back (absent or empty: the first read). */
export function parseCursor(after: string | undefined): FeedCursor | null {
  if (after === undefined || after === '') return null;
  const m = /^(\d{1,18})((?:\.[0-9a-f]{1,32}){0,16})$/.exec(after);
  if (!m)
    throw invalidField('after', 'is not a cursor this hub gave (send back the cursor of the last answer)');
  return { seq: Number(m[1]), prints: m[2] ? m[2].slice(1).split('.') : [] };
}

function formatCursor(c: FeedCursor): string {
  return [String(c.seq), ...c.prints].join('.');
}

interface ChangeRow {
  seq: number;
  entityType: string;
  entityId: string;
}

/** The account's change log rows after `afterSeq`, oldest first (see the file's comment on PostgreSQL). */
async function changeRows(
  store: Store,
  accountId: string,
  afterSeq: number,
  n: number,
): Promise<ChangeRow[]> {
  const read = async (db: Db) =>
    (
      await db
        .selectFrom('changeLog')
        .select(['seq', 'entityType', 'entityId'])
        .where('seq', '>', afterSeq)
        .where('accountId', '=', accountId)
        .orderBy('seq')
        .limit(n)
        .execute()
    ).map((r) => ({ seq: Number(r.seq), entityType: r.entityType, entityId: r.entityId }));
  if (store.engine !== 'postgres') return read(store.db);
  return store.db.transaction().execute(async (trx) => {
    await sql`lock table change_log in share mode`.execute(trx);
    return read(trx);
  });
}

/** The newest sequence of the account's changes above `afterSeq` (null: none), for the long poll. */
export async function newestChangeAfter(db: Db, accountId: string, afterSeq: number): Promise<number | null> {
  const row = await db
    .selectFrom('changeLog')
    .select('seq')
    .where('seq', '>', afterSeq)
    .where('accountId', '=', accountId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}

/** Ids in the order of their last change, each once. */
function lastOrder(rows: ChangeRow[], kind: string): string[] {
  const seen = new Map<string, number>();
  for (const r of rows) if (r.entityType === kind) seen.set(r.entityId, r.seq);
  return [...seen.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}

/** The gifts' limit flags and history, one read each for the page, by gift. */
async function flagsAndHistory(db: Db, ids: readonly string[]) {
  const flags = new Map<string, HubDonationFlag[]>();
  const history = new Map<string, HubDonationHistory[]>();
  const add = <T>(m: Map<string, T[]>, k: string, v: T) => {
    const l = m.get(k);
    if (l) l.push(v);
    else m.set(k, [v]);
  };
  for (const f of await db
    .selectFrom('limitFlags')
    .selectAll()
    .where('donationId', 'in', ids)
    .orderBy('createdAt')
    .orderBy('id')
    .execute())
    add(flags, f.donationId, {
      id: f.id,
      limitKind: f.limitKind,
      windowKey: f.windowKey,
      limitCents: Number(f.limitCents),
      donorTotalCents: Number(f.donorTotalCents),
      state: f.state,
      createdAt: f.createdAt,
      resolvedAt: f.resolvedAt,
      resolutionNote: f.resolutionNote,
    });
  for (const h of await db
    .selectFrom('donationHistory')
    .selectAll()
    .where('donationId', 'in', ids)
    .orderBy('createdAt')
    .orderBy('id')
    .execute())
    add(history, h.donationId, {
      id: h.id,
      action: h.action,
      note: h.note,
      detail: h.detail,
      createdAt: h.createdAt,
    });
  return { flags, history };
}

/**
 * The page's gifts with every value a station mirrors (shared/schemas/hub.ts HubDonation): one
 * read of the gifts (with whether the hub's engine linked each to HQ), one of their flags, one
 * of their history.
 */
async function donationsById(db: Db, accountId: string, ids: string[]): Promise<HubDonation[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('donations as d')
    .innerJoin('contacts as c', 'c.id', 'd.contactId')
    .leftJoin('campaigns as m', 'm.id', 'd.campaignId')
    .leftJoin('syncLinks as l', (j) => j.onRef('l.localId', '=', 'd.id').on('l.entityType', '=', 'donation'))
    .selectAll('d')
    .select(['c.firstName', 'c.lastName', 'm.name as campaignName', 'l.remoteId as hqId'])
    .where('d.id', 'in', ids)
    .execute();
  // By id alone, the account tested on the rows: with the account in the query SQLite walks an
  // index of the account's every gift for each page (O(n) a page).
  const byId = new Map(rows.filter((r) => r.accountId === accountId).map((r) => [r.id, r]));
  const { flags, history } = await flagsAndHistory(db, ids);
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return []; // gone with its donor (the donor is in deletedContacts)
    return [
      {
        id: r.id,
        contactId: r.contactId,
        contactName: `${r.firstName} ${r.lastName}`.trim(),
        donationAmount: centsToDollars(Number(r.amountCents)),
        donationDate: r.donationDate,
        paymentMethod: r.paymentMethod,
        campaignId: r.campaignId,
        campaignName: r.campaignName,
        notes: r.notes,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        stationId: r.stationId,
        enteredByName: r.enteredByName,
        reference: donationReferenceOf(r.notes),
        committeeId: r.committeeId,
        donationAccountId: r.donationAccountId,
        electionType: r.electionType,
        electionYear: r.electionYear === null ? null : Number(r.electionYear),
        status: r.status,
        onBehalfOfContactId: r.onBehalfOfContactId,
        facilitatedByContactId: r.facilitatedByContactId,
        isAnonymous: r.isAnonymous === 1,
        isRecurring: r.isRecurring === 1,
        thankYouSent: r.thankYouSent === 1,
        thankYouSentDate: r.thankYouSentDate,
        sentToHq: r.hqId !== null,
        flags: flags.get(id) ?? [],
        history: history.get(id) ?? [],
      },
    ];
  });
}

/** The kinds of the ledger, with this file's read of the gifts. */
const KINDS: readonly LedgerKind[] = ledgerKinds(donationsById);
const SNAPSHOT_KINDS = KINDS.filter((k): k is AnySnapshotKind => k.mode === 'snapshot');

/** A skipped kind's fingerprint: it never changes, so the kind is never sent. */
const SKIPPED_PRINT = '0';

function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
}

/** Each snapshot kind's list now and its fingerprint, in the list's order (skipped ones: none). */
async function readSnapshots(db: Db, accountId: string, skip: ReadonlySet<string>) {
  const out: Array<{ name: SnapshotName; value: unknown; print: string }> = [];
  for (const kind of SNAPSHOT_KINDS) {
    if (skip.has(kind.name)) {
      out.push({ name: kind.name, value: null, print: SKIPPED_PRINT });
      continue;
    }
    const value: unknown = await kind.read(db, accountId);
    out.push({ name: kind.name, value, print: fingerprint(value) });
  }
  return out;
}

/** The snapshot kinds' fingerprints now, as a cursor carries them (the long poll compares them). */
export async function snapshotPrints(db: Db, accountId: string): Promise<string[]> {
  return (await readSnapshots(db, accountId, skippedKinds())).map((s) => s.print);
}

/** For a station of an earlier version: the four reference lists, when one of them is sent. */
function legacyReference(lists: Map<SnapshotName, unknown>, sent: HubSnapshots): HubChanges['reference'] {
  if (!sent.campaigns && !sent.committees && !sent.donationAccounts && !sent.customFields) return null;
  const get = <K extends SnapshotName>(k: K) => (lists.get(k) ?? []) as NonNullable<HubSnapshots[K]>;
  return {
    campaigns: get('campaigns').map((c) => ({ ...c, totalRaised: 0, donationCount: 0 })),
    committees: get('committees'),
    donationAccounts: get('donationAccounts'),
    customFields: get('customFields'),
  };
}

/** One page of the feed after `after` (see the file's comment). */
export async function readChanges(
  ctx: DomainContext,
  accountId: string,
  after: string | undefined,
  limit: number = FEED_PAGE,
): Promise<HubChanges> {
  const db = ctx.store.db;
  const skip = skippedKinds();
  const cursor = parseCursor(after);
  const rows = await changeRows(ctx.store, accountId, cursor?.seq ?? 0, limit + 1);
  const page = rows.slice(0, limit);
  const snaps = await readSnapshots(db, accountId, skip);
  const had = cursor?.prints.length === snaps.length ? cursor.prints : [];
  const snapshots: HubSnapshots = {};
  const logged: LoggedPart = {};
  for (const kind of KINDS) {
    if (skip.has(kind.name)) continue;
    if (kind.mode === 'logged') {
      Object.assign(logged, await kind.read(db, accountId, lastOrder(page, kind.entityType)));
      continue;
    }
    const i = SNAPSHOT_KINDS.indexOf(kind);
    const s = snaps[i]!;
    if (had[i] !== s.print) Object.assign(snapshots, { [kind.name]: s.value });
  }
  const lists = new Map(snaps.map((s) => [s.name, s.value]));
  const seq = page.length > 0 ? page[page.length - 1]!.seq : (cursor?.seq ?? 0);
  return {
    contacts: logged.contacts ?? [],
    deletedContacts: logged.deletedContacts ?? [],
    donations: logged.donations ?? [],
    snapshots,
    reference: legacyReference(lists, snapshots),
    stations: (lists.get('stations') ?? undefined) as HubSnapshots['stations'],
    cursor: formatCursor({ seq, prints: snaps.map((s) => s.print) }),
    more: rows.length > limit,
  };
}

/** Whether a page carries nothing (the long poll then waits for a change). */
export function emptyPage(page: HubChanges): boolean {
  return (
    page.contacts.length + page.donations.length + page.deletedContacts.length === 0 &&
    Object.keys(page.snapshots ?? {}).length === 0
  );
}

/**
 * One donor as the feed carries it, with every gift of it, whatever the cursor: for a station
 * whose deletion of that donor the hub refused (it has gifts typed elsewhere), which deleted its
 * copy and gets it back from this (GET /hub/donors/{id}). A donor the hub does not have is in
 * `deletedContacts`. No snapshot kind and no cursor: the station's feed goes on where it was.
 */
export async function readDonor(
  ctx: DomainContext,
  accountId: string,
  contactId: string,
): Promise<HubChanges> {
  const db = ctx.store.db;
  const skip = skippedKinds();
  const gifts = (
    await db
      .selectFrom('donations')
      .select('id')
      .where('accountId', '=', accountId)
      .where('contactId', '=', contactId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute()
  ).map((r) => r.id);
  const logged: LoggedPart = {};
  for (const kind of KINDS) {
    if (kind.mode !== 'logged' || skip.has(kind.name)) continue;
    Object.assign(
      logged,
      await kind.read(db, accountId, kind.entityType === 'contact' ? [contactId] : gifts),
    );
  }
  return {
    contacts: logged.contacts ?? [],
    deletedContacts: logged.deletedContacts ?? [],
    donations: logged.donations ?? [],
    snapshots: {},
    reference: null,
    cursor: '',
    more: false,
  };
}
