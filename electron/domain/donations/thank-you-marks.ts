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
import { DomainError, invalidField } from '../errors.ts';
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
 *
 * `onlyStation`: the marks come from an event station's key (at the hub). A station marks only
 * the gifts typed there: when any gift named was typed at another station or at the hub, the
 * whole request is a 403 `not_this_stations_gift` naming those gifts, and nothing is marked.
 */
export async function takeThankYouMarks(
  ctx: DomainContext,
  accountId: string,
  marks: ThankYouMarks['donations'],
  opts: { onlyStation?: string | undefined } = {},
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
      .select(['id', 'thankYouSent', 'stationId'])
      .where('accountId', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    const station = opts.onlyStation;
    if (station !== undefined) {
      const others = new Set(rows.filter((r) => r.stationId !== station).map((r) => r.id));
      if (others.size > 0) throw notOwnGifts(marks, others);
    }
    const found = new Map(rows.map((r) => [r.id, r.thankYouSent]));
    let marked = 0;
    for (const id of ids) {
      if (found.get(id) !== 0) continue; // unknown, or marked already: its first date stays
      await writeThankYouMarks(trx, accountId, [id], dates.get(id)!, now, ctx.actor);
      marked++;
    }
    return { marked, unknown: ids.filter((id) => !found.has(id)) };
  });
}

/** The 403 of marks for gifts another station (or the hub) typed: every such gift named. */
function notOwnGifts(marks: ThankYouMarks['donations'], others: ReadonlySet<string>): DomainError {
  const named = [...others];
  const shown = named.slice(0, 10).join(', ') + (named.length > 10 ? ` and ${named.length - 10} more` : '');
  const issue = 'was typed at another station or at the hub';
  return new DomainError(
    'forbidden',
    'not_this_stations_gift',
    `A station marks thanked only the gifts typed there; ${named.length === 1 ? 'this gift was' : 'these gifts were'} not: ${shown}. Nothing was marked.`,
    marks.flatMap((m, i) => (others.has(m.id) ? [{ field: `donations[${i}].id`, issue }] : [])),
  );
}
