/**
 * Closing the night: per station, the gifts the hub holds from it and their total by payment
 * method, and whether everything the station entered has reached the hub (what it last
 * reported: nothing waiting, and as many gifts entered as the hub received from it); a row for
 * the gifts entered at the hub itself (since it started hosting the event), when there are
 * any; the event's totals; and the deposit: the cash total and the checks, each with its donor
 * and amount. Voided gifts are not gifts: left out everywhere.
 */
import { centsToDollars } from '#shared/money.ts';
import type { CloseOut } from '#shared/schemas/hub.ts';
import type { DomainContext } from '../domain/index.ts';
import { requireHubSettings } from './settings.ts';
import { listStations } from './stations.ts';

/** The close-out's own row for gifts typed at the hub (no station). */
export const AT_THE_HUB = { id: 'hub', name: 'At the hub' } as const;

type MethodTotals = CloseOut['byMethod'];

interface Sums {
  gifts: number;
  cents: number;
  byMethod: Map<string, { gifts: number; cents: number }>;
}

function emptySums(): Sums {
  return { gifts: 0, cents: 0, byMethod: new Map() };
}

function add(s: Sums, method: string, gifts: number, cents: number): void {
  s.gifts += gifts;
  s.cents += cents;
  const m = s.byMethod.get(method) ?? { gifts: 0, cents: 0 };
  m.gifts += gifts;
  m.cents += cents;
  s.byMethod.set(method, m);
}

function methodTotals(s: Sums): MethodTotals {
  const out: MethodTotals = {};
  for (const [method, m] of [...s.byMethod].sort(([a], [b]) => a.localeCompare(b)))
    out[method] = { gifts: m.gifts, total: centsToDollars(m.cents) };
  return out;
}

/** The event's gifts: from a station, or typed at the hub since it began hosting. */
function eventGifts(ctx: DomainContext, accountId: string, since: string) {
  return ctx.store.db
    .selectFrom('donations as d')
    .where('d.accountId', '=', accountId)
    .where('d.status', '!=', 'voided')
    .where((eb) => eb.or([eb('d.stationId', 'is not', null), eb('d.createdAt', '>=', since)]));
}

export async function closeOut(ctx: DomainContext, accountId: string): Promise<CloseOut> {
  const hub = await requireHubSettings(ctx.store.db, accountId);
  const stations = await listStations(ctx, accountId);
  const sums = await eventGifts(ctx, accountId, hub.createdAt)
    .select((eb) => [
      'd.stationId',
      'd.paymentMethod',
      eb.fn.countAll<number | string>().as('gifts'),
      eb.fn.sum<number | string>('d.amountCents').as('cents'),
    ])
    .groupBy(['d.stationId', 'd.paymentMethod'])
    .execute();
  const byStation = new Map<string | null, Sums>();
  const event = emptySums();
  for (const r of sums) {
    const s = byStation.get(r.stationId) ?? emptySums();
    add(s, r.paymentMethod, Number(r.gifts), Number(r.cents));
    add(event, r.paymentMethod, Number(r.gifts), Number(r.cents));
    byStation.set(r.stationId, s);
  }
  const rows: CloseOut['stations'] = stations.map((st) => {
    const s = byStation.get(st.id) ?? emptySums();
    return {
      id: st.id,
      name: st.name,
      gifts: s.gifts,
      total: centsToDollars(s.cents),
      byMethod: methodTotals(s),
      complete: st.waiting === 0 && st.reportedEntered !== null && st.received === st.reportedEntered,
      reportedEntered: st.reportedEntered,
      reportedLastSeq: st.reportedLastSeq,
      waiting: st.waiting,
      lastSeenAt: st.lastSeenAt,
    };
  });
  const atHub = byStation.get(null);
  if (atHub && atHub.gifts > 0)
    rows.push({
      ...AT_THE_HUB,
      gifts: atHub.gifts,
      total: centsToDollars(atHub.cents),
      byMethod: methodTotals(atHub),
      complete: true,
      reportedEntered: null,
      reportedLastSeq: null,
      waiting: null,
      lastSeenAt: null,
    });
  const checks = await eventGifts(ctx, accountId, hub.createdAt)
    .innerJoin('contacts as c', 'c.id', 'd.contactId')
    .select(['d.id', 'd.amountCents', 'd.stationId', 'c.firstName', 'c.lastName'])
    .where('d.paymentMethod', '=', 'check')
    .orderBy('d.createdAt')
    .orderBy('d.id')
    .execute();
  return {
    stations: rows,
    gifts: event.gifts,
    total: centsToDollars(event.cents),
    byMethod: methodTotals(event),
    checks: checks.map((c) => ({
      donationId: c.id,
      donor: `${c.firstName} ${c.lastName}`.trim(),
      amount: centsToDollars(Number(c.amountCents)),
      stationId: c.stationId,
    })),
    cashTotal: centsToDollars(event.byMethod.get('cash')?.cents ?? 0),
  };
}
