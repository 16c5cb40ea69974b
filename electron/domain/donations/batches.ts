/**
 * Gift-entry batches: a named stack of gifts (one table's checks, an evening's cash) with
 * the defaults the entry row starts from and the count and total the volunteer expects.
 * The batch's own count and total are computed from its completed gifts, so they always
 * agree with the donation list. Local bookkeeping only: not in the outbox, never pushed.
 */
import { newId } from '#shared/ids.ts';
import { centsToDollars, dollarsToCents } from '#shared/money.ts';
import type { Batch, BatchCreate, BatchUpdate } from '#shared/schemas/batches.ts';
import type { SelectQueryBuilder } from 'kysely';
import type { BatchesTable, Database } from '../../db/schema.ts';
import { reusable } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import { takeTurnsOn } from '../../db/take-turns.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidField, notFound } from '../errors.ts';
import type { Owner } from './owners.ts';

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.length > 0;

const REFERENCES = [
  ['campaignId', 'campaigns', 'campaign'],
  ['committeeId', 'committees', 'committee'],
  ['donationAccountId', 'donationAccounts', 'donation account'],
] as const;

async function checkReferences(
  trx: Db,
  accountId: string,
  input: Partial<Pick<BatchCreate, 'campaignId' | 'committeeId' | 'donationAccountId' | 'raisedByContactId'>>,
): Promise<void> {
  for (const [field, table, noun] of REFERENCES) {
    const id = input[field];
    if (!present(id)) continue;
    const row = await trx
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!row) throw notFound(noun, field, id, `${noun.replace(/ /g, '_')}_not_found`);
  }
  const host = input.raisedByContactId;
  if (present(host)) {
    const c = await trx
      .selectFrom('contacts')
      .select('id')
      .where('id', '=', host)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!c) throw notFound('contact', 'raisedByContactId', host, 'contact_not_found');
  }
}

function expectedCents(v: number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const c = dollarsToCents(v);
  if (c === null || c < 0)
    throw invalidField('expectedTotal', 'must be a non-negative whole number of cents');
  return c;
}

/** Refuses a gift for a batch that does not exist in the account (404) or is closed (409). */
export async function requireOpenBatch(trx: Db, accountId: string, batchId: string): Promise<void> {
  const b = await trx
    .selectFrom('batches')
    .select(['id', 'closedAt'])
    .where('id', '=', batchId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!b) throw notFound('batch', 'batchId', batchId);
  if (b.closedAt !== null)
    throw new DomainError('conflict', 'batch_closed', `Batch ${batchId} is closed to new gifts`, [
      { field: 'batchId', issue: 'is closed' },
    ]);
}

/**
 * Starts a batch. With an entry key (BatchCreate.entryKey) the account already holds a batch
 * started with, that batch is the answer (`created: false`) and nothing is written: the window
 * tried again after losing the first answer. Two tries racing with one key make one batch (they
 * take turns on the key on PostgreSQL; SQLite writes one at a time; a unique index backs both).
 */
export async function createBatch(
  ctx: DomainContext,
  input: BatchCreate,
): Promise<{ batch: Batch; created: boolean }> {
  const id = newId('batch');
  const at = ctx.now();
  const entryKey = input.entryKey ?? null;
  const row: BatchesTable = {
    id,
    accountId: input.accountId,
    name: input.name,
    campaignId: present(input.campaignId) ? input.campaignId : null,
    committeeId: present(input.committeeId) ? input.committeeId : null,
    donationAccountId: present(input.donationAccountId) ? input.donationAccountId : null,
    paymentMethod: input.paymentMethod ?? null,
    batchDate: input.batchDate ?? null,
    expectedCount: input.expectedCount ?? null,
    expectedCents: expectedCents(input.expectedTotal),
    raisedByContactId: present(input.raisedByContactId) ? input.raisedByContactId : null,
    createdAt: at,
    closedAt: null,
    createdByUserId: ctx.actor?.userId ?? null,
    createdByKeyId: ctx.actor?.keyId ?? null,
    entryKey,
  };
  const held = await ctx.store.write(async (trx) => {
    if (entryKey !== null) {
      await takeTurnsOn(trx, ctx.store.engine, `batch-entry:${input.accountId}:${entryKey}`);
      const before = await trx
        .selectFrom('batches')
        .select('id')
        .where('accountId', '=', input.accountId)
        .where('entryKey', '=', entryKey)
        .executeTakeFirst();
      if (before) return before.id;
    }
    await checkReferences(trx, input.accountId, input);
    await trx.insertInto('batches').values(row).execute();
    return null;
  });
  return { batch: await requireBatch(ctx, input.accountId, held ?? id), created: held === null };
}

export async function updateBatch(
  ctx: DomainContext,
  accountId: string,
  id: string,
  input: BatchUpdate,
): Promise<Batch> {
  const patch: Partial<BatchesTable> = {};
  if (input.name !== undefined) patch.name = input.name;
  for (const [field] of REFERENCES) {
    const v = input[field];
    if (v !== undefined) patch[field] = present(v) ? v : null;
  }
  if (input.paymentMethod !== undefined) patch.paymentMethod = input.paymentMethod;
  if (input.batchDate !== undefined) patch.batchDate = input.batchDate;
  if (input.expectedCount !== undefined) patch.expectedCount = input.expectedCount;
  if (input.expectedTotal !== undefined) patch.expectedCents = expectedCents(input.expectedTotal);
  if (input.raisedByContactId !== undefined)
    patch.raisedByContactId = present(input.raisedByContactId) ? input.raisedByContactId : null;
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const b = await trx
      .selectFrom('batches')
      .select(['id', 'closedAt'])
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!b) throw notFound('batch', 'id', id);
    await checkReferences(trx, accountId, input);
    if (input.closed !== undefined) patch.closedAt = input.closed ? (b.closedAt ?? at) : null;
    if (Object.keys(patch).length > 0)
      await trx.updateTable('batches').set(patch).where('id', '=', id).execute();
  });
  return requireBatch(ctx, accountId, id);
}

/** Batches with their completed count and total (one grouped read over the batch index). */
async function batchViews(db: Db, rows: BatchesTable[]): Promise<Batch[]> {
  if (rows.length === 0) return [];
  const sums = await db
    .selectFrom('donations')
    .select((eb) => [
      'batchId',
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>('amountCents'), eb.lit(0)).as('cents'),
    ])
    .where(
      'batchId',
      'in',
      rows.map((r) => r.id),
    )
    .where('status', '=', 'completed')
    .groupBy('batchId')
    .execute();
  const byId = new Map(sums.map((s) => [s.batchId, s]));
  return rows.map((r) => batchView(r, byId.get(r.id)));
}

/** A batch as the API answers it: its row, and the count and total of its completed gifts. */
function batchView(r: BatchesTable, s: { n: number | string; cents: number | string } | undefined): Batch {
  return {
    id: r.id,
    name: r.name,
    campaignId: r.campaignId,
    committeeId: r.committeeId,
    donationAccountId: r.donationAccountId,
    paymentMethod: r.paymentMethod,
    batchDate: r.batchDate,
    expectedCount: r.expectedCount === null ? null : Number(r.expectedCount),
    expectedTotal: r.expectedCents === null ? null : centsToDollars(Number(r.expectedCents)),
    raisedByContactId: r.raisedByContactId,
    count: Number(s?.n ?? 0),
    total: centsToDollars(Number(s?.cents ?? 0)),
    closedAt: r.closedAt,
    createdAt: r.createdAt,
  };
}

/**
 * One batch with its figures in one statement (every save in gift entry answers it): the row and
 * the count and total of its completed gifts, read through the batch's index of gifts. A named
 * statement on PostgreSQL.
 */
const batchById = reusable(
  (db, p) =>
    db
      .selectFrom('batches as b')
      .leftJoin('donations as d', (j) => j.onRef('d.batchId', '=', 'b.id').on('d.status', '=', 'completed'))
      .selectAll('b')
      .select((eb) => [
        eb.fn.count<number>('d.id').as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('d.amountCents'), eb.lit(0)).as('cents'),
      ])
      .where('b.id', '=', p<string>(0))
      .where('b.accountId', '=', p<string>(1))
      .groupBy('b.id'),
  { named: true },
);

export async function requireBatch(ctx: DomainContext, accountId: string, id: string): Promise<Batch> {
  const row = (await batchById(ctx.store.db, [id, accountId])).rows[0] as
    (BatchesTable & { n: number | string; cents: number | string }) | undefined;
  if (!row) throw notFound('batch', 'id', id);
  return batchView(row, row);
}

/** Newest first. */
export async function listBatches(
  ctx: DomainContext,
  accountId: string,
  page: { limit: number; offset: number },
  /** Only this person's (or, with no person, this key's) batches: a volunteer's list. */
  owner?: Owner,
): Promise<{ data: Batch[]; total: number }> {
  const db = ctx.store.db;
  const mine = <Q extends SelectQueryBuilder<Database, 'batches', object>>(q: Q): Q =>
    owner === undefined
      ? q
      : owner.userId !== null
        ? (q.where('createdByUserId', '=', owner.userId) as Q)
        : (q.where('createdByUserId', 'is', null).where('createdByKeyId', '=', owner.keyId) as Q);
  const rows = await mine(db.selectFrom('batches').selectAll().where('accountId', '=', accountId))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const n = await mine(
    db
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', accountId),
  ).executeTakeFirstOrThrow();
  return { data: await batchViews(db, rows), total: Number(n.n) };
}
