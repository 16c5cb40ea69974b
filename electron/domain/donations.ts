/**
 * Donations: create (D1–D7), list (newest first, date range), and the full record for the
 * app. The remote API has no donation update; locally a gift is corrected only through the
 * review actions (limits.ts) and, before it is pushed, by the sync engine's own rules.
 */
import { toIsoInstant, toRangeEnd } from '#shared/dates.ts';
import { newId } from '#shared/ids.ts';
import { dollarsToCents } from '#shared/money.ts';
import type {
  DonationCreateBody,
  DonationCreated,
  DonationDetail,
  DonationList,
  DonationListQuery,
} from '#shared/schemas/donations.ts';
import { DESIGNATION_ISSUE } from '#shared/schemas/donations.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import type { InferResult } from 'kysely';
import { reusable } from '../db/bulk.ts';
import type { DonationRow } from '../db/schema.ts';
import type { Db } from '../db/store.ts';
import { bumpCounters, logChange, readCounters } from './change-log.ts';
import type { DomainContext, WriteOptions } from './context.ts';
import { type Election, resolveElection } from './elections.ts';
import { DomainError, invalidField, notFound, ReferenceHeld } from './errors.ts';
import { requireOpenBatch } from './batches.ts';
import { addHistory, checkLimits, recomputeContactTotals } from './limits.ts';
import { donationAmountOf, donationFromRow } from './row-mappers.ts';

const flag = (v: boolean | undefined): 0 | 1 => (v ? 1 : 0);
const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.length > 0;

/** D2: at least one of campaignId, committeeId, donationAccountId. */
export function requireDesignation(
  input: Pick<DonationCreateBody, 'campaignId' | 'committeeId' | 'donationAccountId'>,
): void {
  if (present(input.campaignId) || present(input.committeeId) || present(input.donationAccountId)) return;
  const issue = DESIGNATION_ISSUE;
  throw new DomainError(
    'bad_request',
    'designation_required',
    `A donation must be credited to a campaign, committee or donation account: ${issue}`,
    [
      { field: 'campaignId', issue },
      { field: 'committeeId', issue },
      { field: 'donationAccountId', issue },
    ],
  );
}

/** The records a donation may reference besides its donor, each of which must exist in the account. */
export const DONATION_REFERENCES = [
  ['campaignId', 'campaigns', 'campaign'],
  ['committeeId', 'committees', 'committee'],
  ['donationAccountId', 'donationAccounts', 'donation account'],
  ['onBehalfOfContactId', 'contacts', 'contact'],
  ['facilitatedByContactId', 'contacts', 'contact'],
] as const;

/** The 404 for a referenced record missing from the account (D3 and the rest). */
export function referenceNotFound(noun: string, field: string, id: string) {
  return notFound(noun, field, id, `${noun.replace(/ /g, '_')}_not_found`);
}

/** 404 naming the field, for any referenced record missing from the account (D3 and the rest). */
async function checkReferences(trx: Db, input: DonationCreateBody): Promise<void> {
  for (const [field, table, noun] of DONATION_REFERENCES) {
    const id = input[field];
    if (!present(id)) continue;
    const found = await referenceInAccount[table](trx, [id, input.accountId]);
    if (found.rows.length === 0) throw referenceNotFound(noun, field, id);
  }
}

/** Whether a referenced record is in the account, per table (compiled once: the request path). */
const referenceInAccount = Object.fromEntries(
  (['campaigns', 'committees', 'donationAccounts', 'contacts'] as const).map((table) => [
    table,
    reusable((db, p) =>
      db.selectFrom(table).select('id').where('id', '=', p<string>(0)).where('accountId', '=', p<string>(1)),
    ),
  ]),
) as Record<(typeof DONATION_REFERENCES)[number][1], ReturnType<typeof reusable>>;

export function toCreated(row: DonationRow): DonationCreated {
  const d = donationFromRow(row);
  return {
    id: d.id,
    contactId: d.contactId,
    campaignId: d.campaignId,
    donationAmount: d.donationAmount,
    donationDate: d.donationDate,
    paymentMethod: d.paymentMethod,
    status: d.status,
    notes: d.notes,
    createdAt: d.createdAt,
  };
}

/** A donation's own values, checked (D1, D2, D4) and converted: cents, canonical instants. */
export interface CheckedDonation {
  cents: number;
  donationDate: string;
  thankYouSentDate: string | null;
}

/**
 * The rules a donation must pass before any record is looked up. Pure: the API's create and
 * the bulk import share it, so they accept exactly the same gifts.
 */
export function checkDonation(input: DonationCreateBody): CheckedDonation {
  requireDesignation(input);
  const cents = dollarsToCents(input.donationAmount);
  if (cents === null || cents <= 0) throw invalidField('donationAmount', 'must be greater than zero');
  const donationDate = toIsoInstant(input.donationDate);
  if (donationDate === null) throw invalidField('donationDate', 'must be an ISO 8601 date');
  const thankYouSentDate = present(input.thankYouSentDate) ? toIsoInstant(input.thankYouSentDate) : null;
  return { cents, donationDate, thankYouSentDate };
}

/** The stored row of a checked donation (status completed). */
export function donationRow(
  input: DonationCreateBody,
  checked: CheckedDonation,
  election: Election,
  id: string,
  at: string,
  externalId: string | null,
): DonationRow {
  return {
    id,
    accountId: input.accountId,
    contactId: input.contactId,
    amountCents: checked.cents,
    donationDate: checked.donationDate,
    paymentMethod: input.paymentMethod,
    status: 'completed',
    campaignId: present(input.campaignId) ? input.campaignId : null,
    committeeId: present(input.committeeId) ? input.committeeId : null,
    donationAccountId: present(input.donationAccountId) ? input.donationAccountId : null,
    electionType: election.electionType,
    electionYear: election.electionYear,
    onBehalfOfContactId: present(input.onBehalfOfContactId) ? input.onBehalfOfContactId : null,
    facilitatedByContactId: present(input.facilitatedByContactId) ? input.facilitatedByContactId : null,
    isAnonymous: flag(input.isAnonymous),
    isRecurring: flag(input.isRecurring),
    thankYouSent: flag(input.thankYouSent),
    thankYouSentDate: checked.thankYouSentDate,
    notes: present(input.notes) ? input.notes : null,
    externalId,
    batchId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Adds gifts to a donor's lifetime total and moves the last gift date forward: one UPDATE
 * that is also the donor's row lock (on PostgreSQL) and tells whether the donor exists.
 */
export function addToDonorTotals(
  trx: Db,
  p: { accountId: string; contactId: string; cents: number; latestDate: string },
) {
  return trx
    .updateTable('contacts')
    .set((eb) => ({
      totalCents: eb('totalCents', '+', p.cents),
      lastDonationDate: eb
        .case()
        .when(eb.or([eb('lastDonationDate', 'is', null), eb('lastDonationDate', '<', p.latestDate)]))
        .then(p.latestDate)
        .else(eb.ref('lastDonationDate'))
        .end(),
    }))
    .where('id', '=', p.contactId)
    .where('accountId', '=', p.accountId);
}

/** addToDonorTotals compiled once, for the request path: values accountId, contactId, cents, latestDate. */
const addToDonorTotalsOnce = reusable((db, p) =>
  addToDonorTotals(db, { accountId: p(0), contactId: p(1), cents: p(2), latestDate: p(3) }),
);

/** Every column of a stored donation, in the order insertDonationRow takes their values. */
const DONATION_COLUMNS = [
  'id',
  'accountId',
  'contactId',
  'amountCents',
  'donationDate',
  'paymentMethod',
  'status',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'electionType',
  'electionYear',
  'onBehalfOfContactId',
  'facilitatedByContactId',
  'isAnonymous',
  'isRecurring',
  'thankYouSent',
  'thankYouSentDate',
  'notes',
  'externalId',
  'batchId',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof DonationRow>;
/** Fails to compile when a column of DonationRow is missing from DONATION_COLUMNS. */
const everyDonationColumn: Exclude<keyof DonationRow, (typeof DONATION_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everyDonationColumn;

const insertDonationRow = reusable((db, p) =>
  db
    .insertInto('donations')
    .values(Object.fromEntries(DONATION_COLUMNS.map((c, i) => [c, p(i)])) as unknown as DonationRow),
);

/**
 * A gift's sync reference (values accountId, reference, donationId). One per reference and
 * account: when another create with it has committed meanwhile (PostgreSQL: this one waited
 * for it on the key), nothing is inserted, and insertDonation says so.
 */
const insertDonationReference = reusable((db, p) =>
  db
    .insertInto('donationSyncReferences')
    .values({ accountId: p<string>(0), reference: p<string>(1), donationId: p<string>(2) })
    .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing()),
);

/** The account's gift created with this sync reference (values accountId, reference). */
const donationByReference = reusable((db, p) =>
  db
    .selectFrom('donationSyncReferences as r')
    .innerJoin('donations as d', 'd.id', 'r.donationId')
    .selectAll('d')
    .where('r.accountId', '=', p<string>(0))
    .where('r.reference', '=', p<string>(1)),
);

/**
 * Inserts one donation inside an open write transaction: the rules, the contact's totals,
 * the account's count, the limit check (D6) and the outbox entry, all or nothing.
 */
export async function insertDonation(
  trx: Db,
  input: DonationCreateBody,
  at: string,
  opts: DonationWriteOptions = {},
): Promise<DonationRow> {
  const checked = checkDonation(input);
  // A sync reference the account holds already: the record it names is the answer.
  const reference = donationReferenceOf(input.notes);
  if (reference !== null) {
    const held = await donationByReference(trx, [input.accountId, reference]);
    if (held.rows.length > 0) throw new ReferenceHeld(reference);
  }
  // The donor's totals move first: that UPDATE is also the row lock (on PostgreSQL) under
  // which this donor's limit checks run one at a time, and it tells us the donor exists (D3).
  // Anything refused after it is rolled back with the rest of the request.
  const donor = await addToDonorTotalsOnce(trx, [
    input.accountId,
    input.contactId,
    checked.cents,
    checked.donationDate,
  ]);
  if (Number(donor.numAffectedRows ?? 0) === 0)
    throw notFound('contact', 'contactId', input.contactId, 'contact_not_found');
  await checkReferences(trx, input);
  const election = await resolveElection(trx, input.accountId, checked.donationDate, input);
  if (present(opts.batchId)) await requireOpenBatch(trx, input.accountId, opts.batchId);
  const row = {
    ...donationRow(input, checked, election, newId('donation'), at, opts.externalId ?? null),
    batchId: present(opts.batchId) ? opts.batchId : null,
  };
  await insertDonationRow(
    trx,
    DONATION_COLUMNS.map((c) => row[c]),
  );
  if (reference !== null) {
    const kept = await insertDonationReference(trx, [input.accountId, reference, row.id]);
    // Another create with this reference committed since the check above: roll this one back
    // (the gift, the totals, everything), answer that one.
    if (Number(kept.numAffectedRows ?? 0) === 0) throw new ReferenceHeld(reference);
  }
  await bumpCounters(trx, input.accountId, { donations: 1 });
  await checkLimits(trx, row, at);
  await logChange(trx, {
    accountId: input.accountId,
    entityType: 'donation',
    entityId: row.id,
    op: 'create',
    push: opts.push,
    at,
  });
  return row;
}

/** How a donation is written: pushed or not, an import's reference, the gift-entry batch. */
export interface DonationWriteOptions extends WriteOptions {
  externalId?: string | null;
  batchId?: string | null;
}

export async function createDonation(
  ctx: DomainContext,
  input: DonationCreateBody,
  opts: DonationWriteOptions = {},
): Promise<DonationCreated> {
  return (await createDonationOnce(ctx, input, opts)).donation;
}

/**
 * Creates a gift, once per sync reference: when the notes' last line is a GiftDesk reference
 * (`gd:<local id>`, #shared/sync-reference.ts) and the account already holds a gift created
 * with it, that gift is the answer (`created: false`) and nothing is written — no row, no
 * totals, no change-log entry. The database enforces it (a unique reference per account), so
 * two creates racing with one reference store one gift and both answer it.
 */
export async function createDonationOnce(
  ctx: DomainContext,
  input: DonationCreateBody,
  opts: DonationWriteOptions = {},
): Promise<{ donation: DonationCreated; created: boolean }> {
  requireDesignation(input); // fail fast before queueing a write
  for (;;) {
    const at = ctx.now();
    try {
      const row = await ctx.store.write((trx) => insertDonation(trx, input, at, opts));
      return { donation: toCreated(row), created: true };
    } catch (err) {
      if (!(err instanceof ReferenceHeld)) throw err;
      const held = await donationByReference(ctx.store.db, [input.accountId, err.reference]);
      const row = held.rows[0] as DonationRow | undefined;
      if (row) return { donation: toCreated(row), created: false };
      // Deleted (with its donor) since it was seen: the reference is free again, try once more.
    }
  }
}

/** The list query's date range as stored instants (null: open at that end). */
function listRange(q: DonationListQuery): { from: string | null; to: string | null } {
  const from = q.startDate !== undefined ? toIsoInstant(q.startDate) : null;
  const to = q.endDate !== undefined ? toRangeEnd(q.endDate) : null;
  if (from && to && from > to) throw invalidField('endDate', 'must not be before startDate');
  return { from, to };
}

/**
 * The gifts a list query covers: the account's, not voided, in the date range (a bound that is
 * null is left out). The values may be `reusable`'s placeholders.
 */
function listedDonations(db: Db, accountId: string, from: string | null, to: string | null) {
  // A voided gift (cancelled before it reached HQ) is not a gift: not listed, not counted.
  let filtered = db
    .selectFrom('donations')
    .where('accountId', '=', accountId)
    .where('status', '!=', 'voided');
  if (from !== null) filtered = filtered.where('donationDate', '>=', from);
  if (to !== null) filtered = filtered.where('donationDate', '<=', to);
  return filtered;
}

/** One page of the list's ids, newest first (ties by id, descending). */
function pageOf(
  db: Db,
  accountId: string,
  from: string | null,
  to: string | null,
  limit: number,
  offset: number,
) {
  return listedDonations(db, accountId, from, to)
    .select(['id', 'donationDate'])
    .orderBy('donationDate', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
}

/**
 * One page of the list's ids, newest first (ties by id, descending), read off the
 * (account_id, donation_date, id, status) index alone: the skipped gifts cost an index entry
 * each, never a table row (migration donations-list-index). Exported for the plan's test.
 */
export function donationPageQuery(ctx: DomainContext, q: DonationListQuery) {
  const { from, to } = listRange(q);
  return pageOf(ctx.store.db, q.accountId, from, to, q.limit ?? 20, q.offset ?? 0);
}

/** The page's ids first, then only the page's rows joined to their donor and campaign. */
function pageRowsOf(db: Db, page: ReturnType<typeof pageOf>) {
  return db
    .selectFrom(page.as('p'))
    .innerJoin('donations as d', 'd.id', 'p.id')
    .innerJoin('contacts as c', 'c.id', 'd.contactId')
    .leftJoin('campaigns as m', 'm.id', 'd.campaignId')
    .select([
      'd.id',
      'd.contactId',
      'c.firstName',
      'c.lastName',
      'd.amountCents',
      'd.donationDate',
      'd.paymentMethod',
      'd.campaignId',
      'm.name as campaignName',
      'd.notes',
      'd.createdAt',
    ])
    .orderBy('d.donationDate', 'desc')
    .orderBy('d.id', 'desc');
}
type ListedRow = InferResult<ReturnType<typeof pageRowsOf>>[number];

/**
 * The list's two statements, compiled once per dialect for each shape of date range (none,
 * from, to, both: index 2·from + to), run with [accountId, from, to, limit, offset]: a page
 * costs no Kysely building or compiling per request (bench/RESULTS.md, donations list).
 */
const RANGES = [
  [false, false],
  [false, true],
  [true, false],
  [true, true],
] as const;
const listPage = RANGES.map(([f, t]) =>
  reusable((db, p) =>
    pageRowsOf(db, pageOf(db, p(0), f ? p(1) : null, t ? p(2) : null, p<number>(3), p<number>(4))),
  ),
);
const listCount = RANGES.map(([f, t]) =>
  reusable((db, p) =>
    listedDonations(db, p(0), f ? p(1) : null, t ? p(2) : null).select((eb) =>
      eb.fn.countAll<number>().as('n'),
    ),
  ),
);

export async function listDonations(ctx: DomainContext, q: DonationListQuery): Promise<DonationList> {
  const db = ctx.store.db;
  const limit = q.limit ?? 20;
  const offset = q.offset ?? 0;
  const { from, to } = listRange(q);
  const shape = (from !== null ? 2 : 0) + (to !== null ? 1 : 0);
  const values = [q.accountId, from, to, limit, offset];
  const rows = (await listPage[shape]!(db, values)).rows as ListedRow[];

  let total: number;
  if (shape !== 0) {
    const r = (await listCount[shape]!(db, values)).rows[0] as { n: number | string | bigint };
    total = Number(r.n);
  } else {
    // Unfiltered: the account's counter (kept with every write), not a count of a million rows.
    total = (await readCounters(db, q.accountId)).donations;
  }
  const donations = new Array<DonationList['donations'][number]>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    donations[i] = {
      id: r.id,
      contactId: r.contactId,
      contactName: `${r.firstName} ${r.lastName}`.trim(),
      donationAmount: donationAmountOf(r.amountCents),
      donationDate: r.donationDate,
      paymentMethod: r.paymentMethod,
      campaignId: r.campaignId,
      campaignName: r.campaignName,
      notes: r.notes,
      createdAt: r.createdAt,
    };
  }
  return { donations, total, limit, offset };
}

/** The full records of donations, as the app shows them. */
function detailQuery(db: Db, accountId: string) {
  return (
    db
      .selectFrom('donations as d')
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .leftJoin('campaigns as m', 'm.id', 'd.campaignId')
      .selectAll('d')
      .select(['c.firstName', 'c.lastName', 'm.name as campaignName'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('limitFlags as f')
              .select('f.id')
              .whereRef('f.donationId', '=', 'd.id')
              .where('f.state', '=', 'open'),
          )
          .as('flagged'),
      )
      // Its sync to HQ (the sync engine's tables): the HQ id once sent, the push state.
      .leftJoin('syncLinks as sl', (j) =>
        j.onRef('sl.localId', '=', 'd.id').on('sl.entityType', '=', 'donation'),
      )
      .leftJoin('syncItems as si', (j) =>
        j.onRef('si.entityId', '=', 'd.id').on('si.entityType', '=', 'donation'),
      )
      .select([
        'sl.remoteId as syncRemoteId',
        'si.state as syncState',
        'si.attentionReason as syncReason',
        'si.firstAttemptAt as syncFirstAttemptAt',
        'si.lastError as syncLastError',
      ])
      .where('d.accountId', '=', accountId)
  );
}

/** Where a gift stands with HQ, and why it can or cannot be changed here. */
function syncOf(r: {
  status: string;
  syncRemoteId: string | null;
  syncState: string | null;
  syncReason: string | null;
  syncFirstAttemptAt: string | null;
  syncLastError: string | null;
}): DonationDetail['sync'] {
  if (r.syncRemoteId !== null) {
    return {
      state: 'sent',
      readOnly: true,
      reason: "Sent to HQ; HQ's API cannot change a gift, so it is read-only here.",
      remoteId: r.syncRemoteId,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  }
  if (r.syncState === 'in_flight' || r.syncState === 'unknown') {
    return {
      state: 'sending',
      readOnly: true,
      reason: 'Being sent to HQ (or its last attempt is being checked): read-only until that is settled.',
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  }
  if (r.status === 'voided')
    return {
      state: 'not_sent',
      readOnly: true,
      reason: 'Voided: it will never be sent to HQ.',
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  if (r.syncState === 'attention')
    return {
      state: 'needs_attention',
      readOnly: false,
      reason: r.syncReason,
      remoteId: null,
      firstAttemptAt: r.syncFirstAttemptAt,
    };
  return {
    state: 'not_sent',
    readOnly: false,
    reason: r.syncLastError,
    remoteId: null,
    firstAttemptAt: r.syncFirstAttemptAt,
  };
}

type DetailRow = Awaited<ReturnType<ReturnType<typeof detailQuery>['executeTakeFirstOrThrow']>>;

function toDetail(r: DetailRow): DonationDetail {
  return {
    ...donationFromRow(r),
    contactName: `${r.firstName} ${r.lastName}`.trim(),
    campaignName: r.campaignName,
    flagged: Boolean(r.flagged),
    sync: syncOf(r),
  };
}

export async function getDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<DonationDetail> {
  const r = await detailQuery(ctx.store.db, accountId).where('d.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('donation', 'id', id);
  return toDetail(r);
}

/** A batch's gifts in full, in the order they were typed (the batch must exist: the caller checks). */
export async function listBatchDonations(
  ctx: DomainContext,
  accountId: string,
  batchId: string,
  page: { limit: number; offset: number },
): Promise<{ data: DonationDetail[]; total: number }> {
  const rows = await detailQuery(ctx.store.db, accountId)
    .where('d.batchId', '=', batchId)
    .orderBy('d.createdAt')
    .orderBy('d.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const n = await ctx.store.db
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('batchId', '=', batchId)
    .where('accountId', '=', accountId)
    .executeTakeFirstOrThrow();
  return { data: rows.map(toDetail), total: Number(n.n) };
}

/* ---------------- corrections before the first send ---------------- */

/**
 * HQ has no donation update: once a gift may have reached HQ it is read-only here. That is
 * from its first send attempt: when HQ has it (the id map links it) or a request for it may
 * be out (its push state is in flight or unknown). The sync engine records both in the same
 * tables this reads. A gift HQ refused (needs attention) never reached HQ and can be fixed.
 */
export async function donationSendState(
  db: Db,
  id: string,
): Promise<{ sent: boolean; sending: boolean; firstAttemptAt: string | null }> {
  const link = await db
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('entityType', '=', 'donation')
    .where('localId', '=', id)
    .executeTakeFirst();
  const item = await db
    .selectFrom('syncItems')
    .select(['state', 'firstAttemptAt'])
    .where('entityType', '=', 'donation')
    .where('entityId', '=', id)
    .executeTakeFirst();
  return {
    sent: link !== undefined,
    sending: item?.state === 'in_flight' || item?.state === 'unknown',
    firstAttemptAt: item?.firstAttemptAt ?? null,
  };
}

async function lockUnsentDonation(
  trx: Db,
  accountId: string,
  id: string,
  doing: string,
): Promise<DonationRow> {
  // The no-op UPDATE is the row lock on PostgreSQL: the engine's "in flight" mark takes it too.
  const locked = await trx
    .updateTable('donations')
    .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) === 0) throw notFound('donation', 'id', id);
  const row = await trx.selectFrom('donations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const st = await donationSendState(trx, id);
  if (st.sent || st.sending) {
    const when = st.firstAttemptAt ? ` on ${st.firstAttemptAt.slice(0, 16).replace('T', ' ')} UTC` : '';
    const why = st.sent
      ? `Gift ${id} was sent to HQ${when}, and HQ's API cannot change or remove a gift: ${doing} it in HQ's web application instead.`
      : `Gift ${id} is being sent to HQ right now (or its last attempt's outcome is still being checked${when}): it cannot be changed until that is settled. Try again after the next sync.`;
    throw new DomainError('conflict', st.sent ? 'donation_sent' : 'donation_sending', why, [
      { field: 'id', issue: st.sent ? 'was already sent to HQ' : 'is being sent to HQ' },
    ]);
  }
  if (row.status === 'voided')
    throw new DomainError('conflict', 'donation_voided', `Gift ${id} is voided: it cannot be changed`, [
      { field: 'id', issue: 'is voided' },
    ]);
  return row;
}

/** The fields a correction may change (any of a create's, except the account). */
export type DonationCorrection = Partial<Omit<DonationCreateBody, 'accountId'>>;

/** Corrects a gift that has not been sent to HQ yet: every rule of a create applies again. */
export async function correctDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
  patch: DonationCorrection,
): Promise<DonationDetail> {
  const fields = Object.keys(patch).filter((k) => patch[k as keyof DonationCorrection] !== undefined);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = await lockUnsentDonation(trx, accountId, id, 'correct');
    if (fields.length === 0) return;
    const d = donationFromRow(row);
    const current: DonationCreateBody = {
      accountId,
      contactId: d.contactId,
      donationAmount: d.donationAmount,
      donationDate: d.donationDate,
      paymentMethod: d.paymentMethod,
      campaignId: d.campaignId,
      committeeId: d.committeeId,
      donationAccountId: d.donationAccountId,
      onBehalfOfContactId: d.onBehalfOfContactId,
      facilitatedByContactId: d.facilitatedByContactId,
      isAnonymous: d.isAnonymous,
      isRecurring: d.isRecurring,
      thankYouSent: d.thankYouSent,
      thankYouSentDate: d.thankYouSentDate,
      notes: d.notes,
    };
    const next: DonationCreateBody = { ...current, ...patch, accountId };
    const checked = checkDonation(next);
    if (next.contactId !== row.contactId) {
      const donor = await trx
        .selectFrom('contacts')
        .select('id')
        .where('id', '=', next.contactId)
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      if (!donor) throw notFound('contact', 'contactId', next.contactId, 'contact_not_found');
    }
    await checkReferences(trx, next);
    const electionSent = patch.electionType !== undefined || patch.electionYear !== undefined;
    const election = electionSent
      ? await resolveElection(trx, accountId, checked.donationDate, {
          electionType: next.electionType ?? null,
          electionYear: next.electionYear ?? null,
        })
      : checked.donationDate !== row.donationDate
        ? await resolveElection(trx, accountId, checked.donationDate, {})
        : { electionType: row.electionType, electionYear: row.electionYear };
    const updated = {
      ...donationRow(next, checked, election, id, row.createdAt, row.externalId),
      batchId: row.batchId,
      updatedAt: at,
    };
    await trx.updateTable('donations').set(updated).where('id', '=', id).execute();
    for (const c of new Set([row.contactId, next.contactId])) await recomputeContactTotals(trx, c);
    // Limits are checked afresh for the corrected gift (its open flags no longer describe it).
    await trx.deleteFrom('limitFlags').where('donationId', '=', id).where('state', '=', 'open').execute();
    await checkLimits(trx, updated, at);
    await addHistory(trx, id, 'corrected', null, { fields }, at);
    await logChange(trx, { accountId, entityType: 'donation', entityId: id, op: 'update', fields, at });
  });
  return getDonation(ctx, accountId, id);
}

/** Voids a gift that has not been sent to HQ yet: it stays on record as voided and is never sent. */
export async function voidDonation(
  ctx: DomainContext,
  accountId: string,
  id: string,
  reason: string | null = null,
): Promise<DonationDetail> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = await lockUnsentDonation(trx, accountId, id, 'void');
    await trx
      .updateTable('donations')
      .set({ status: 'voided', updatedAt: at })
      .where('id', '=', id)
      .execute();
    await recomputeContactTotals(trx, row.contactId);
    await bumpCounters(trx, accountId, { donations: -1 });
    await trx
      .updateTable('limitFlags')
      .set({ state: 'reviewed', resolvedAt: at, resolutionNote: 'gift voided' })
      .where('donationId', '=', id)
      .where('state', '=', 'open')
      .execute();
    await addHistory(trx, id, 'voided', reason, { from: row.status, to: 'voided' }, at);
    await logChange(trx, {
      accountId,
      entityType: 'donation',
      entityId: id,
      op: 'update',
      fields: ['status'],
      at,
    });
  });
  return getDonation(ctx, accountId, id);
}
