/**
 * The dashboard's gifts by where they were entered, in an event. This GiftDesk is in one when
 * it hosts it (a `hub_settings` row for the account) or is one of its stations (a remote of
 * kind 'hub'). A gift's `station_id` says where it was typed:
 *
 * - at the hub: null is the hub itself; a station's id is that station (named from
 *   `hub_stations`);
 * - at a station: this station's own id is this station (it stamps the gifts typed here with
 *   it); null is the hub; another station's id is that station, named as the hub's feed named
 *   it (`event_stations`; its own name is on its remote), else by id only.
 *
 * So a gift counts at the same place, and (gifts of the event keeping the hub's `created_at`,
 * the time it was entered where it was typed) at the same time, at every end of the event.
 */
import { centsToDollars } from '#shared/money.ts';
import type { StationTotal } from '#shared/schemas/stats.ts';
import type { z } from 'zod';
import type { DomainContext } from '../context.ts';

type StationRow = z.infer<typeof StationTotal>;

/** What this GiftDesk is in the account's event. */
export type EventPlace =
  | { role: 'none' }
  | { role: 'hub' }
  | { role: 'station'; stationId: string | null; stationName: string | null };

export async function eventPlace(ctx: DomainContext, accountId: string): Promise<EventPlace> {
  const db = ctx.store.db;
  const remote = await db
    .selectFrom('syncRemotes')
    .select(['stationId', 'stationName'])
    .where('accountId', '=', accountId)
    .where('kind', '=', 'hub')
    .executeTakeFirst();
  if (remote) return { role: 'station', stationId: remote.stationId, stationName: remote.stationName };
  const hub = await db
    .selectFrom('hubSettings')
    .select('accountId')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return hub ? { role: 'hub' } : { role: 'none' };
}

/** One group of the scope's gifts: its station, its sums. */
export interface StationGroup {
  stationId: string | null;
  n: number;
  cents: number;
}

/** Where a group's gifts were entered, seen from here. */
function placeOf(place: EventPlace, g: StationGroup): Pick<StationRow, 'where' | 'stationId'> {
  if (place.role === 'station') {
    if (g.stationId === null) return { where: 'hub', stationId: null };
    if (g.stationId === place.stationId) return { where: 'here', stationId: null };
    return { where: 'station', stationId: g.stationId };
  }
  return g.stationId === null
    ? { where: 'here', stationId: null }
    : { where: 'station', stationId: g.stationId };
}

/** The groups summed by where they were entered and named: here first, then the largest total. */
export async function stationTotals(
  ctx: DomainContext,
  accountId: string,
  place: EventPlace,
  groups: readonly StationGroup[],
): Promise<StationRow[]> {
  if (place.role === 'none') return [];
  const sums = new Map<
    string,
    { where: StationRow['where']; stationId: string | null; n: number; cents: number }
  >();
  for (const g of groups) {
    const p = placeOf(place, g);
    const key = `${p.where}:${p.stationId ?? ''}`;
    const v = sums.get(key);
    if (v) {
      v.n += g.n;
      v.cents += g.cents;
    } else sums.set(key, { ...p, n: g.n, cents: g.cents });
  }
  const ids = [...sums.values()].map((s) => s.stationId).filter((id): id is string => id !== null);
  const names = new Map<string, string>();
  if (ids.length > 0)
    for (const s of await ctx.store.db
      .selectFrom(place.role === 'station' ? 'eventStations' : 'hubStations')
      .select(['id', 'name'])
      .where('accountId', '=', accountId)
      .where('id', 'in', ids)
      .execute())
      names.set(s.id, s.name);
  const rank = { here: 0, hub: 1, station: 2 } as const;
  return [...sums.values()]
    .sort((a, b) => rank[a.where] - rank[b.where] || b.cents - a.cents)
    .map((s) => ({
      where: s.where,
      stationId: s.stationId,
      stationName:
        s.where === 'here' && place.role === 'station'
          ? place.stationName
          : s.stationId === null
            ? null
            : (names.get(s.stationId) ?? null),
      count: s.n,
      total: centsToDollars(s.cents),
    }));
}
