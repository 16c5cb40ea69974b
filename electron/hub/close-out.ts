/**
 * Closing the night: per station, the gifts the hub holds from it and their total by payment
 * method, where it stands (closeOutState) and the batch counts it reported; a row for the gifts
 * entered at the hub itself (since it started hosting the event), when there are any; the
 * event's totals; and the deposit (deposit.ts's figures of each station and the hub added up):
 * the cash total and the checks, each with its donor, amount and number. Voided gifts are not
 * gifts: left out everywhere.
 */
import { centsToDollars } from '#shared/money.ts';
import type { CloseOut, CloseOutStation, HubStation } from '#shared/schemas/hub.ts';
import { addDepositFigures, depositFigures, methodCents } from '../domain/donations/index.ts';
import type { DomainContext } from '../domain/index.ts';
import { requireHubSettings } from './settings.ts';
import { listStations, reportedBatchesOf } from './stations.ts';

/**
 * Where a station stands. Complete only from a report it made since the hub's server last
 * started serving (one from before says nothing of what it typed while the hub was away), with
 * nothing waiting and as many gifts entered as the hub holds from it. A removed station is not
 * known after its removal: never complete, whatever it said before.
 */
export function closeOutState(st: HubStation, servedAt: string | null): CloseOutStation['state'] {
  if (st.revokedAt !== null) return 'revoked';
  if (st.reportedAt === null || servedAt === null || st.reportedAt < servedAt) return 'not_reported';
  return st.waiting === 0 && st.reportedEntered === st.received ? 'complete' : 'waiting';
}

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
  const [stations, batches] = await Promise.all([
    listStations(ctx, accountId),
    reportedBatchesOf(ctx.store.db, accountId),
  ]);
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
    const state = closeOutState(st, hub.servedAt);
    return {
      id: st.id,
      name: st.name,
      gifts: s.gifts,
      total: centsToDollars(s.cents),
      byMethod: methodTotals(s),
      complete: state === 'complete',
      state,
      reportedEntered: st.reportedEntered,
      reportedLastSeq: st.reportedLastSeq,
      waiting: st.waiting,
      reportedAt: st.reportedAt,
      revokedAt: st.revokedAt,
      lastSeenAt: st.lastSeenAt,
      batches: batches.get(st.id) ?? [],
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
      state: 'complete',
      reportedEntered: null,
      reportedLastSeq: null,
      waiting: null,
      reportedAt: null,
      revokedAt: null,
      lastSeenAt: null,
      batches: [],
    });
  // The deposit: each station's figures and the hub's own (since it hosts the event), added up.
  const scopes = [
    ...stations.map((st) => ({ stationId: st.id as string | null })),
    { stationId: null, enteredSince: hub.createdAt },
  ];
  const parts = await Promise.all(
    scopes.map(async (scope) => ({
      stationId: scope.stationId,
      figures: await depositFigures(ctx.store.db, accountId, scope),
    })),
  );
  const stationOf = new Map(
    parts.flatMap((p) => p.figures.checks.map((c) => [c.donationId, p.stationId] as const)),
  );
  const deposit = addDepositFigures(parts.map((p) => p.figures));
  return {
    stations: rows,
    gifts: event.gifts,
    total: centsToDollars(event.cents),
    byMethod: methodTotals(event),
    checks: deposit.checks.map((c) => ({
      donationId: c.donationId,
      donor: c.contactName,
      amount: centsToDollars(c.cents),
      stationId: stationOf.get(c.donationId) ?? null,
      checkNumber: c.checkNumber,
    })),
    cashTotal: centsToDollars(methodCents(deposit, 'cash')),
    servedAt: hub.servedAt,
  };
}
