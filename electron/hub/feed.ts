/**
 * The hub's change feed for its stations (GET /hub/changes): what changed in the account after
 * a cursor, read off the change log (every domain write appends to it in its own
 * transaction), oldest first, a bounded page at a time. Contacts come in their read shape
 * with custom fields; gifts with every value a station mirrors (their station of origin, the
 * sync reference of the station that typed them, status, marks, whether the hub sent them to
 * HQ, their flags and history); contacts no longer there as deleted ids; the reference lists
 * (campaigns, committees, donation accounts, custom fields) whole on the first read and
 * whenever one of them changed since the cursor; and the event's stations by id and name (a
 * handful of rows, on every page: a station joining is not in the change log).
 *
 * The cursor is the change log's sequence, and the custom fields' fingerprint after a dot
 * (custom field definitions are not in the change log; their change shows as a new
 * fingerprint). On SQLite commits happen one at a time in sequence order, so a change the
 * feed has not seen always has a higher sequence than the cursor. On PostgreSQL sequence
 * numbers are handed out before commit, so the read briefly takes the change log in SHARE mode:
 * it waits for the writes in flight and reads only once each of them has committed or rolled
 * back, so no change can commit later under a sequence the cursor has passed.
 */
import { centsToDollars } from '#shared/money.ts';
import type { HubChanges, HubDonation, HubDonationFlag, HubDonationHistory } from '#shared/schemas/hub.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { Db, Store } from '../db/store.ts';
import { getContact, listCustomFields } from '../domain/contacts/index.ts';
import { type DomainContext, invalidField, isDomainError } from '../domain/index.ts';
import { listCampaigns, listCommittees, listDonationAccounts } from '../domain/reference/index.ts';

/** Changes read per page unless the station asks for another size (at most 500). */
export const FEED_PAGE = 100;

const REFERENCE_KINDS = new Set(['campaign', 'committee', 'donationAccount']);

export interface FeedCursor {
  seq: number;
  /** The custom fields' fingerprint the station has (null: it has none yet). */
  fields: string | null;
}

/** A cursor as a station sends it back (absent or empty: the first read). */
export function parseCursor(after: string | undefined): FeedCursor | null {
  if (after === undefined || after === '') return null;
  const m = /^(\d{1,18})(?:\.([0-9a-f]{1,32}))?$/.exec(after);
  if (!m)
    throw invalidField('after', 'is not a cursor this hub gave (send back the cursor of the last answer)');
  return { seq: Number(m[1]), fields: m[2] ?? null };
}

function formatCursor(c: FeedCursor): string {
  return c.fields ? `${c.seq}.${c.fields}` : String(c.seq);
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
    .where('d.accountId', '=', accountId)
    .where('d.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
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

/** Contacts in their read shape; the ones no longer there as deleted ids. */
async function contactsById(ctx: DomainContext, accountId: string, ids: string[]) {
  const contacts: HubChanges['contacts'] = [];
  const deleted: string[] = [];
  for (const id of ids) {
    try {
      contacts.push(await getContact(ctx, accountId, id));
    } catch (err) {
      if (!isDomainError(err) || err.code !== 'contact_not_found') throw err;
      deleted.push(id);
    }
  }
  return { contacts, deleted };
}

function fingerprintOfFields(fields: unknown): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 16);
}

/** One page of the feed after `after` (see the file's comment). */
export async function readChanges(
  ctx: DomainContext,
  accountId: string,
  after: string | undefined,
  limit: number = FEED_PAGE,
): Promise<HubChanges> {
  const cursor = parseCursor(after);
  const rows = await changeRows(ctx.store, accountId, cursor?.seq ?? 0, limit + 1);
  const page = rows.slice(0, limit);
  const customFields = await listCustomFields(ctx.store.db, accountId);
  const fields = fingerprintOfFields(customFields);
  const wantReference =
    cursor === null || cursor.fields !== fields || page.some((r) => REFERENCE_KINDS.has(r.entityType));
  const { contacts, deleted } = await contactsById(ctx, accountId, lastOrder(page, 'contact'));
  const donations = await donationsById(ctx.store.db, accountId, lastOrder(page, 'donation'));
  const reference = wantReference
    ? {
        campaigns: await listCampaigns(ctx, accountId),
        committees: await listCommittees(ctx, accountId),
        donationAccounts: await listDonationAccounts(ctx, accountId),
        customFields,
      }
    : null;
  const stations = await ctx.store.db
    .selectFrom('hubStations')
    .select(['id', 'name'])
    .where('accountId', '=', accountId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const seq = page.length > 0 ? page[page.length - 1]!.seq : (cursor?.seq ?? 0);
  return {
    contacts,
    deletedContacts: deleted,
    donations,
    reference,
    stations,
    cursor: formatCursor({ seq, fields }),
    more: rows.length > limit,
  };
}
