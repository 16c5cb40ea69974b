/**
 * Closing a batch with its count: the person counting the cash box, the checks and the card
 * slips says what they found per payment method; it is set against what was entered (the
 * deposit figures, deposit.ts) and recorded with who counted and the difference, and the
 * batch is closed to new gifts. A count that differs is recorded only when the caller says so
 * (`acceptDifference`): the app asks the person first. Local bookkeeping, never pushed.
 */
import { PAYMENT_METHODS, type PaymentMethod } from '#shared/enums.ts';
import { centsToDollars, dollarsToCents, formatCents } from '#shared/money.ts';
import type { BatchCount, BatchCountBody, DepositSummary } from '#shared/schemas/batch-balance.ts';
import { newId } from '#shared/ids.ts';
import type { BatchCountLinesTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidField, notFound } from '../errors.ts';
import { type DepositFigures, depositFigures, methodCents } from './deposit.ts';

const ORDER = new Map(PAYMENT_METHODS.map((m, i) => [m, i]));

/** The batch's newest count, or null when it was never counted. */
export async function lastBatchCount(db: Db, batchId: string): Promise<BatchCount | null> {
  const row = await db
    .selectFrom('batchCounts')
    .selectAll()
    .where('batchId', '=', batchId)
    .orderBy('countedAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) return null;
  const lines = await db.selectFrom('batchCountLines').selectAll().where('countId', '=', row.id).execute();
  lines.sort((a, b) => (ORDER.get(a.paymentMethod) ?? 0) - (ORDER.get(b.paymentMethod) ?? 0));
  return {
    id: row.id,
    countedBy: row.countedBy,
    savedBy: row.byName ?? (row.byKeyId !== null ? `API key ${row.byKeyId}` : null),
    note: row.note,
    countedAt: row.countedAt,
    enteredCount: Number(row.enteredCount),
    enteredTotal: centsToDollars(Number(row.enteredCents)),
    countedTotal: centsToDollars(Number(row.countedCents)),
    difference: centsToDollars(Number(row.differenceCents)),
    lines: lines.map((l) => ({
      paymentMethod: l.paymentMethod,
      enteredCount: Number(l.enteredCount),
      enteredTotal: centsToDollars(Number(l.enteredCents)),
      countedCount: l.countedCount === null ? null : Number(l.countedCount),
      countedTotal: centsToDollars(Number(l.countedCents)),
      difference: centsToDollars(Number(l.countedCents) - Number(l.enteredCents)),
    })),
  };
}

/** GET /v1/batches/:id/deposit: the batch's deposit summary and its last count. */
export async function batchDepositSummary(
  ctx: DomainContext,
  accountId: string,
  batchId: string,
): Promise<DepositSummary> {
  const db = ctx.store.db;
  const batch = await db
    .selectFrom('batches')
    .select(['id', 'name', 'batchDate', 'closedAt'])
    .where('id', '=', batchId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!batch) throw notFound('batch', 'id', batchId);
  const [f, lastCount] = await Promise.all([
    depositFigures(db, accountId, { batchId }),
    lastBatchCount(db, batchId),
  ]);
  return {
    batchId: batch.id,
    batchName: batch.name,
    batchDate: batch.batchDate,
    closedAt: batch.closedAt,
    count: f.count,
    total: centsToDollars(f.cents),
    byMethod: f.byMethod.map((m) => ({
      paymentMethod: m.paymentMethod,
      count: m.count,
      total: centsToDollars(m.cents),
    })),
    cashTotal: centsToDollars(methodCents(f, 'cash')),
    checks: f.checks.map(({ cents, ...c }) => ({ ...c, amount: centsToDollars(cents) })),
    checksTotal: centsToDollars(f.checks.reduce((a, c) => a + c.cents, 0)),
    lastCount,
  };
}

/** The counted lines against the entered figures; refuses a method listed twice or one left out. */
function countLines(f: DepositFigures, countId: string, body: BatchCountBody): BatchCountLinesTable[] {
  const seen = new Set<PaymentMethod>();
  const lines = body.counted.map((c, i): BatchCountLinesTable => {
    if (seen.has(c.paymentMethod))
      throw invalidField(`counted[${i}].paymentMethod`, `lists ${c.paymentMethod} a second time`);
    seen.add(c.paymentMethod);
    const entered = f.byMethod.find((m) => m.paymentMethod === c.paymentMethod);
    return {
      countId,
      paymentMethod: c.paymentMethod,
      enteredCount: entered?.count ?? 0,
      enteredCents: entered?.cents ?? 0,
      countedCount: c.count ?? null,
      countedCents: dollarsToCents(c.total) ?? 0,
    };
  });
  const missing = f.byMethod.filter((m) => !seen.has(m.paymentMethod));
  if (missing.length > 0)
    throw invalidField(
      'counted',
      `must list every payment method the batch has gifts in: ${missing.map((m) => m.paymentMethod).join(', ')} missing`,
    );
  return lines.sort((a, b) => (ORDER.get(a.paymentMethod) ?? 0) - (ORDER.get(b.paymentMethod) ?? 0));
}

/** Whether a count sent is the batch's last count: who counted, the note, every line counted. */
function sameCount(last: BatchCount, body: BatchCountBody): boolean {
  const note = body.note?.trim() ? body.note.trim() : null;
  if (last.countedBy !== body.countedBy || last.note !== note || last.lines.length !== body.counted.length)
    return false;
  return body.counted.every((c) => {
    const line = last.lines.find((l) => l.paymentMethod === c.paymentMethod);
    return (
      line !== undefined &&
      line.countedCount === (c.count ?? null) &&
      dollarsToCents(line.countedTotal) === (dollarsToCents(c.total) ?? 0)
    );
  });
}

const differs = (l: BatchCountLinesTable) =>
  l.countedCents !== l.enteredCents || (l.countedCount !== null && l.countedCount !== l.enteredCount);

/**
 * POST /v1/batches/:id/count: records the count and closes the batch. A closed batch: 409
 * (reopen it to count again), naming who counted it; unless this is the count that closed it,
 * sent again, which answers as the first time and writes nothing. A count that differs without `acceptDifference: true`: 409
 * `count_differs`, naming the difference, and nothing is written.
 */
export async function countAndCloseBatch(
  ctx: DomainContext,
  accountId: string,
  batchId: string,
  body: BatchCountBody,
): Promise<DepositSummary> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const b = await trx
      .selectFrom('batches')
      .select(['id', 'closedAt'])
      .where('id', '=', batchId)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!b) throw notFound('batch', 'id', batchId);
    if (b.closedAt !== null) {
      // The same count again (its answer was lost, and the person pressed again): it is the
      // count that closed the batch, and nothing is written.
      const last = await lastBatchCount(trx, batchId);
      if (last && sameCount(last, body)) return;
      const by = last ? `counted by ${last.countedBy}` : 'closed';
      throw new DomainError(
        'conflict',
        'batch_closed',
        `Batch ${batchId} was ${by}: reopen it to count again`,
        [{ field: 'id', issue: `was ${by} already: reopen the batch to count it again` }],
      );
    }
    const f = await depositFigures(trx, accountId, { batchId });
    const id = newId('batchCount');
    const lines = countLines(f, id, body);
    const countedCents = lines.reduce((a, l) => a + l.countedCents, 0);
    const differenceCents = countedCents - f.cents;
    if (lines.some(differs) && body.acceptDifference !== true) {
      const words =
        differenceCents === 0
          ? 'the counts by method differ from what was entered'
          : `counted ${formatCents(countedCents)} against ${formatCents(f.cents)} entered (${formatCents(Math.abs(differenceCents))} ${differenceCents < 0 ? 'short' : 'over'})`;
      throw new DomainError('conflict', 'count_differs', `The count differs: ${words}`, [
        { field: 'acceptDifference', issue: `must be true to close with a difference: ${words}` },
      ]);
    }
    await trx
      .insertInto('batchCounts')
      .values({
        id,
        accountId,
        batchId,
        countedBy: body.countedBy,
        note: body.note?.trim() ? body.note.trim() : null,
        enteredCount: f.count,
        enteredCents: f.cents,
        countedCents,
        differenceCents,
        countedAt: at,
        byUserId: ctx.actor?.userId ?? null,
        byKeyId: ctx.actor?.keyId ?? null,
        byName: ctx.actor?.name ?? null,
      })
      .execute();
    if (lines.length > 0) await trx.insertInto('batchCountLines').values(lines).execute();
    await trx.updateTable('batches').set({ closedAt: at }).where('id', '=', batchId).execute();
  });
  return batchDepositSummary(ctx, accountId, batchId);
}
