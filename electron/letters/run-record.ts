/**
 * A print run's row and its gifts, recorded before it renders (runs.ts startLetterRun); and a
 * run started once per try: the key a window minted for the start (LetterRunCreate's entryKey),
 * kept on the run (migration letter-run-entry-key), names the run a start tried again after its
 * answer was lost should answer, instead of a second run of the same letters.
 */
import type { Db } from '../db/store.ts';
import { takeTurnsOn } from '../db/take-turns.ts';
import { THIS_PROCESS } from '../domain/accounts/index.ts';
import type { DomainContext } from '../domain/index.ts';
import { type ChoiceCounts, recordRunGifts } from './paged.ts';
import type { LetterSet } from './select.ts';

/** What a run's letters are: their kind, the choice they were made from, its period. */
export type SetHead = Pick<LetterSet, 'kind' | 'choice' | 'period'>;

/**
 * The run's row (its counts as the aggregate found them), then its gifts a page to a
 * transaction, then the counts of what was recorded. Until rendering is done the run cannot
 * be marked sent, so a run cut short here never marks anything.
 */
export async function insertRun(
  ctx: DomainContext,
  accountId: string,
  id: string,
  head: SetHead,
  counts: ChoiceCounts,
  record: () => ReturnType<typeof recordRunGifts>,
  entryKey: string | null,
) {
  const at = ctx.now();
  const held = await ctx.store.write(async (trx) => {
    if (entryKey !== null) {
      // Two starts with one key take turns on PostgreSQL (SQLite writes one at a time); a
      // unique index backs both.
      await takeTurnsOn(trx, ctx.store.engine, `letter-run-entry:${accountId}:${entryKey}`);
      const before = await runStartedWith(trx, accountId, entryKey);
      if (before !== null) return before;
    }
    await trx
      .insertInto('letterRuns')
      .values({
        id,
        accountId,
        kind: head.kind,
        filters: JSON.stringify(head.choice),
        status: counts.documents === 0 ? 'done' : 'rendering',
        documents: counts.documents,
        rendered: 0,
        gifts: counts.gifts,
        totalCents: counts.totalCents,
        createdAt: at,
        finishedAt: counts.documents === 0 ? at : null,
        owner: THIS_PROCESS,
        entryKey,
      })
      .execute();
    return null;
  });
  if (held !== null) return { held };
  if (counts.documents === 0) return null;
  const recorded = await record();
  const empty = recorded.documents === 0;
  if (empty || recorded.gifts !== counts.gifts || recorded.documents !== counts.documents)
    await ctx.store.write((trx) =>
      trx
        .updateTable('letterRuns')
        .set({
          documents: recorded.documents,
          gifts: recorded.gifts,
          totalCents: recorded.totalCents,
          ...(empty ? { status: 'done' as const, finishedAt: ctx.now() } : {}),
        })
        .where('id', '=', id)
        .execute(),
    );
  return empty ? null : recorded;
}

/** The id of the account's run started with `entryKey`, or null. */
export async function runStartedWith(db: Db, accountId: string, entryKey: string): Promise<string | null> {
  const row = await db
    .selectFrom('letterRuns')
    .select('id')
    .where('accountId', '=', accountId)
    .where('entryKey', '=', entryKey)
    .executeTakeFirst();
  return row?.id ?? null;
}
