/**
 * Thank-you marks taken from another GiftDesk (`POST /donations/thank-you`): a station or a
 * desktop GiftDesk marked gifts thanked after they reached this one (its HQ, or its event
 * hub), by this GiftDesk's own ids. The donor API has no donation update, so this is
 * GiftDesk's extension; a spec-only HQ does without (docs/design.md, "Letters").
 *
 * Setting a mark twice is harmless — a gift already marked keeps its first date and is not
 * counted — so a sender whose request's outcome was unknown simply sends it again. Each gift
 * newly marked is logged as an update of the two fields, as markThanked logs it, so a hub
 * passes its stations' marks on to HQ.
 */
import { inYearRange, toIsoInstant, YEAR_RANGE_ISSUE } from '#shared/dates.ts';
import type { ThankYouMarks } from '#shared/schemas/letters.ts';
import type { DomainContext } from '../context.ts';
import { invalidField } from '../errors.ts';
import { writeThankYouMarks } from './thank-you.ts';

export interface ThankYouMarksTaken {
  /** Gifts newly marked. */
  marked: number;
  /** Ids given that are no gift of the account (deleted, or never here). */
  unknown: string[];
}

/**
 * Marks the account's gifts thanked, each at its own date, in one transaction. Every date is
 * checked before anything is written (a 400 naming `donations[i].thankYouSentDate`).
 */
export async function takeThankYouMarks(
  ctx: DomainContext,
  accountId: string,
  marks: ThankYouMarks['donations'],
): Promise<ThankYouMarksTaken> {
  const dates = new Map<string, string>();
  marks.forEach((m, i) => {
    const field = `donations[${i}].thankYouSentDate`;
    const at = toIsoInstant(m.thankYouSentDate);
    if (at === null) throw invalidField(field, 'must be an ISO 8601 date');
    if (!inYearRange(at)) throw invalidField(field, YEAR_RANGE_ISSUE);
    if (!dates.has(m.id)) dates.set(m.id, at);
  });
  const ids = [...dates.keys()];
  const now = ctx.now();
  return ctx.store.write(async (trx) => {
    const rows = await trx
      .selectFrom('donations')
      .select(['id', 'thankYouSent'])
      .where('accountId', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    const found = new Map(rows.map((r) => [r.id, r.thankYouSent]));
    let marked = 0;
    for (const id of ids) {
      if (found.get(id) !== 0) continue; // unknown, or marked already: its first date stays
      await writeThankYouMarks(trx, accountId, [id], dates.get(id)!, now);
      marked++;
    }
    return { marked, unknown: ids.filter((id) => !found.has(id)) };
  });
}
