/**
 * Marking gifts thanked: a letter, receipt or statement went out for them. Sets
 * `thankYouSent` and `thankYouSentDate` on exactly the gifts given, in one transaction, and
 * logs each as a donation update of those two fields, so the sync carries the marks on (in a
 * gift's create when it has not been sent yet; see docs/design.md, "Letters").
 */
import type { Db } from '../../db/store.ts';
import type { Actor, DomainContext } from '../context.ts';
import { logChange } from '../change-log.ts';
import { historyRow } from '../limits/history.ts';

export const THANK_YOU_FIELDS = ['thankYouSent', 'thankYouSentDate'] as const;

/**
 * Marks the account's gifts `donationIds` thanked at `sentAt` (an ISO timestamp). A gift
 * already marked keeps its first date and is not counted; ids of other accounts, or of no
 * gift, are ignored. Returns how many gifts were newly marked.
 */
export async function markThanked(
  ctx: DomainContext,
  accountId: string,
  donationIds: readonly string[],
  sentAt: string = ctx.now(),
): Promise<number> {
  if (donationIds.length === 0) return 0;
  const at = ctx.now();
  return ctx.store.write(async (trx) => {
    let marked = 0;
    for (let i = 0; i < donationIds.length; i += 500) {
      const chunk = donationIds.slice(i, i + 500);
      const open = await trx
        .selectFrom('donations')
        .select('id')
        .where('accountId', '=', accountId)
        .where('id', 'in', chunk)
        .where('thankYouSent', '=', 0)
        .execute();
      if (open.length === 0) continue;
      const ids = open.map((r) => r.id);
      await writeThankYouMarks(trx, accountId, ids, sentAt, at, ctx.actor);
      marked += ids.length;
    }
    return marked;
  });
}

/**
 * Sets the marks on the account's gifts `ids` (found unmarked by the caller) at `sentAt`, in
 * the caller's transaction, logs each as a donation update of the two fields, and writes each
 * gift's history entry (`thanked`, with who marked it).
 */
export async function writeThankYouMarks(
  trx: Db,
  accountId: string,
  ids: readonly string[],
  sentAt: string,
  at: string,
  actor?: Actor | null,
): Promise<void> {
  const detail = {
    fields: [...THANK_YOU_FIELDS],
    changes: [
      { field: 'thankYouSent', before: false, after: true },
      { field: 'thankYouSentDate', before: null, after: sentAt },
    ],
  };
  await trx
    .insertInto('donationHistory')
    .values(ids.map((id) => historyRow(id, 'thanked', null, detail, at, actor)))
    .execute();
  await trx
    .updateTable('donations')
    .set({ thankYouSent: 1, thankYouSentDate: sentAt, updatedAt: at })
    .where('accountId', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  for (const id of ids) {
    await logChange(trx, {
      accountId,
      entityType: 'donation',
      entityId: id,
      op: 'update',
      fields: [...THANK_YOU_FIELDS],
      at,
    });
  }
}
