/**
 * The outbox is `change_log` (every domain write appends to it in its own transaction).
 * A change is still to go while `push = 1 and synced_at is null`; `attempt_id` says which
 * request it went into. These are the engine's reads and writes of it.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/store.ts';
import type { ChangeOp } from '../../domain/change-log.ts';
import type { PendingChange } from '../push/coalesce.ts';
import type { PushEntity } from './items.ts';

export const PUSHED_TYPES: readonly PushEntity[] = ['contact', 'donation'];

export interface PendingEntity {
  entityType: PushEntity;
  entityId: string;
  firstSeq: number;
}

/** Records with changes still to go and not in a request, oldest change first. */
export async function listPendingEntities(
  db: Db,
  accountId: string,
  limit: number,
): Promise<PendingEntity[]> {
  const rows = await db
    .selectFrom('changeLog')
    .select(['entityType', 'entityId', (eb) => eb.fn.min('seq').as('firstSeq')])
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .where('attemptId', 'is', null)
    .where('entityType', 'in', PUSHED_TYPES)
    .groupBy(['entityType', 'entityId'])
    .orderBy('firstSeq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    entityType: r.entityType as PushEntity,
    entityId: r.entityId,
    firstSeq: Number(r.firstSeq),
  }));
}

/**
 * Changes to records that are not pushed (campaigns, committees, donation accounts: HQ's
 * are linked, never created through the API) are done with at once.
 */
export async function settleUnpushedTypes(trx: Db, accountId: string, at: string): Promise<number> {
  const r = await trx
    .updateTable('changeLog')
    .set({ syncedAt: at })
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .where('entityType', 'not in', PUSHED_TYPES)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A record's changes still to go and not in a request. */
export async function pendingChanges(
  db: Db,
  entityType: PushEntity,
  entityId: string,
): Promise<PendingChange[]> {
  const rows = await db
    .selectFrom('changeLog')
    .select(['seq', 'op', 'fields'])
    .where('entityType', '=', entityType)
    .where('entityId', '=', entityId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .where('attemptId', 'is', null)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    op: r.op as ChangeOp,
    fields: r.fields === null ? null : (JSON.parse(r.fields) as string[]),
  }));
}

/** Puts changes into a request (before it leaves). */
export async function markAttempt(trx: Db, seqs: readonly number[], attemptId: string): Promise<void> {
  for (let i = 0; i < seqs.length; i += 500) {
    await trx
      .updateTable('changeLog')
      .set({ attemptId })
      .where('seq', 'in', seqs.slice(i, i + 500))
      .execute();
  }
}

/** The request was applied (HQ said so, or it was found at HQ): its changes (and only those) are done, and sent. */
export async function settleAttempt(
  trx: Db,
  accountId: string,
  attemptId: string,
  at: string,
): Promise<number> {
  const r = await trx
    .updateTable('changeLog')
    .set({ syncedAt: at })
    .where('attemptId', '=', attemptId)
    .where('syncedAt', 'is', null)
    .executeTakeFirst();
  const n = Number(r.numUpdatedRows);
  await countDone(trx, accountId, n, true);
  return n;
}

/** Changes done with without a request (coalesced into nothing, discarded by the user). */
export async function settleSeqs(
  trx: Db,
  accountId: string,
  seqs: readonly number[],
  at: string,
): Promise<number> {
  let n = 0;
  for (let i = 0; i < seqs.length; i += 500) {
    const r = await trx
      .updateTable('changeLog')
      .set({ syncedAt: at })
      .where('seq', 'in', seqs.slice(i, i + 500))
      .where('syncedAt', 'is', null)
      .executeTakeFirst();
    n += Number(r.numUpdatedRows);
  }
  await countDone(trx, accountId, n);
  return n;
}

/** The request was not applied: its changes are to go again (with whatever came since). */
export async function releaseAttempt(trx: Db, attemptId: string): Promise<void> {
  await trx
    .updateTable('changeLog')
    .set({ attemptId: null })
    .where('attemptId', '=', attemptId)
    .where('syncedAt', 'is', null)
    .execute();
}

/** Done with: `sent` when HQ confirmed them (not when merged into nothing or discarded). */
async function countDone(trx: Db, accountId: string, n: number, sent = false): Promise<void> {
  if (n <= 0) return;
  await trx
    .updateTable('syncRemotes')
    .set({
      doneCount: sql<number>`done_count + ${n}`,
      ...(sent ? { sentCount: sql<number>`sent_count + ${n}` } : {}),
    })
    .where('accountId', '=', accountId)
    .execute();
}

export interface QueueCounts {
  /** Changes still to go, not in a request. */
  pending: number;
  /** Changes in a request whose answer is not recorded yet (in flight or unknown). */
  inFlight: number;
  /** Records parked for a person. */
  needsAttention: number;
  /** Changes done with since sync was configured. */
  done: number;
}

export async function queueCounts(db: Db, accountId: string): Promise<QueueCounts> {
  const q = await db
    .selectFrom('changeLog')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('attemptId').as('inAttempt')])
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .where('entityType', 'in', PUSHED_TYPES)
    .executeTakeFirstOrThrow();
  const att = await db
    .selectFrom('syncItems')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', accountId)
    .where('state', '=', 'attention')
    .executeTakeFirstOrThrow();
  const remote = await db
    .selectFrom('syncRemotes')
    .select('doneCount')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const all = Number(q.n);
  const inFlight = Number(q.inAttempt);
  return {
    pending: all - inFlight,
    inFlight,
    needsAttention: Number(att.n),
    done: Number(remote?.doneCount ?? 0),
  };
}
