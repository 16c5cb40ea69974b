/**
 * Donation statistics for the dashboard: totals, totals by campaign and gifts over time for
 * a scope (a date range, a batch, or both). Completed gifts only, as every total in the API.
 * One grouped read over the scope's rows, which an index finds: (account_id,
 * donation_date) or (account_id, created_at) for a range (today's figures read only
 * today's gifts), the partial batch index for a batch. Sums are of integer cents; dollars only at the edge.
 * In an event the same groups also split by the station each gift was entered at
 * (stats-stations.ts).
 */
import { toIsoInstant, toRangeEnd } from '#shared/dates.ts';
import { centsToDollars } from '#shared/money.ts';
import { MAX_TIME_POINTS, type DonationStats, type DonationStatsQuery } from '#shared/schemas/stats.ts';
import type { TimeUnit } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { invalidField, notFound } from '../errors.ts';
import { eventPlace, stationTotals, type StationGroup } from './stats-stations.ts';

const STEP_MS: Record<TimeUnit, number> = { hour: 3_600_000, day: 86_400_000 };

/** The start of the UTC hour or day `iso` falls in, canonical. */
export function bucketStart(iso: string, unit: TimeUnit): string {
  return unit === 'hour' ? `${iso.slice(0, 13)}:00:00.000Z` : `${iso.slice(0, 10)}T00:00:00.000Z`;
}

/** Every bucket start from `from`'s bucket to `to`'s, inclusive (null when more than `max`). */
export function bucketStarts(
  from: string,
  to: string,
  unit: TimeUnit,
  max = MAX_TIME_POINTS,
): string[] | null {
  const first = Date.parse(bucketStart(from, unit));
  const last = Date.parse(bucketStart(to, unit));
  const n = Math.floor((last - first) / STEP_MS[unit]) + 1;
  if (n > max) return null;
  const out: string[] = [];
  for (let t = first; t <= last; t += STEP_MS[unit]) out.push(new Date(t).toISOString());
  return out;
}

export async function donationStats(ctx: DomainContext, q: DonationStatsQuery): Promise<DonationStats> {
  const db = ctx.store.db;
  const from = q.startDate !== undefined ? toIsoInstant(q.startDate) : null;
  const to = q.endDate !== undefined ? toRangeEnd(q.endDate) : null;
  if (from && to && from > to) throw invalidField('endDate', 'must not be before startDate');
  const batchId = q.batchId ?? null;
  if (batchId) {
    const b = await db
      .selectFrom('batches')
      .select('id')
      .where('id', '=', batchId)
      .where('accountId', '=', q.accountId)
      .executeTakeFirst();
    if (!b) throw notFound('batch', 'batchId', batchId);
  }

  // The time a gift counts at: its date (the default), or when it was entered where it was
  // typed (the event room's "tonight"; a station's gift keeps its station's time at the hub, and
  // every gift of the event keeps the hub's at a station).
  const time = q.basis === 'entered' ? 'd.createdAt' : 'd.donationDate';
  let scope = db
    .selectFrom('donations as d')
    .where('d.accountId', '=', q.accountId)
    .where('d.status', '=', 'completed');
  if (from) scope = scope.where(time, '>=', from);
  if (to) scope = scope.where(time, '<=', to);
  if (batchId) scope = scope.where('d.batchId', '=', batchId);

  // The unit: asked for, else hours for a range of less than two days, days for longer.
  // Without a range a batch's own span decides (its rows are few, found by its index);
  // the whole account is shown by day without first reading its span.
  let unit: TimeUnit = q.bucket ?? 'day';
  if (!q.bucket) {
    let span: number | null = null;
    if (from && to) span = Date.parse(to) - Date.parse(from);
    else if (batchId) {
      const r = await scope
        .select((eb) => [eb.fn.min(time).as('first'), eb.fn.max(time).as('last')])
        .executeTakeFirst();
      if (r?.first && r.last) span = Date.parse(String(r.last)) - Date.parse(String(r.first));
    }
    if (span !== null && span < 2 * STEP_MS.day) unit = 'hour';
  }
  let axis: string[] | null = null;
  if (from && to) {
    axis = bucketStarts(from, to, unit);
    if (axis === null)
      throw invalidField(
        'bucket',
        `covers at most ${MAX_TIME_POINTS} ${unit}s: ask for a shorter range${unit === 'hour' ? ' or bucket=day' : ''}`,
      );
  }

  // One pass over the scope's rows, grouped by time bucket, campaign and station; the totals,
  // the campaigns, the stations and the time line are sums of these groups.
  const place = await eventPlace(ctx, q.accountId);
  const bucket = ctx.store.timeBucket(time, unit);
  const groups = await scope
    .select((eb) => [
      bucket.as('start'),
      'd.campaignId',
      'd.stationId',
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>('d.amountCents'), eb.lit(0)).as('cents'),
    ])
    .groupBy([bucket, 'd.campaignId', 'd.stationId'])
    .execute();

  let count = 0;
  let cents = 0;
  const byCampaign = new Map<string | null, { n: number; cents: number }>();
  const byStart = new Map<string, { n: number; cents: number }>();
  const add = <K>(m: Map<K, { n: number; cents: number }>, k: K, n: number, c: number) => {
    const v = m.get(k);
    if (v) {
      v.n += n;
      v.cents += c;
    } else m.set(k, { n, cents: c });
  };
  const stationGroups: StationGroup[] = [];
  for (const g of groups) {
    const n = Number(g.n);
    const c = Number(g.cents);
    count += n;
    cents += c;
    add(byCampaign, g.campaignId, n, c);
    add(byStart, String(g.start), n, c);
    stationGroups.push({ stationId: g.stationId, n, cents: c });
  }
  const ids = [...byCampaign.keys()].filter((k): k is string => k !== null);
  const names = new Map(
    ids.length === 0
      ? []
      : (await db.selectFrom('campaigns').select(['id', 'name']).where('id', 'in', ids).execute()).map(
          (c) => [c.id, c.name] as const,
        ),
  );
  // Without a range the axis spans the gifts found (zeros between them), when that is not too long.
  if (!axis && byStart.size > 0) {
    const starts = [...byStart.keys()].sort();
    axis = bucketStarts(starts[0]!, starts[starts.length - 1]!, unit) ?? starts;
  }

  return {
    startDate: from,
    endDate: to,
    batchId,
    basis: q.basis ?? 'donationDate',
    count,
    total: centsToDollars(cents),
    byCampaign: [...byCampaign]
      .map(([id, v]) => ({
        campaignId: id,
        campaignName: id === null ? null : (names.get(id) ?? null),
        count: v.n,
        total: centsToDollars(v.cents),
        cents: v.cents,
      }))
      .sort((a, b) => b.cents - a.cents || (a.campaignName ?? '').localeCompare(b.campaignName ?? ''))
      .map(({ cents: _cents, ...rest }) => rest),
    byStation: await stationTotals(ctx, q.accountId, place, stationGroups),
    overTime: {
      unit,
      points: (axis ?? []).map((start) => {
        const p = byStart.get(start);
        return { start, count: p?.n ?? 0, total: centsToDollars(p?.cents ?? 0) };
      }),
    },
  };
}
