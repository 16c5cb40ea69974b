/**
 * Who did what: how a change's author is kept in a history entry (`detail.by`: the person, else
 * the key, and the event station), and how it is read back for the History panels and the audit
 * export (the person's name, else the station's, else the key's id).
 */
import type { HistoryEntry, Who } from '#shared/schemas/history.ts';
import type { Db } from '../db/store.ts';
import type { Actor } from './context.ts';

/** Who made a change, as a history entry's `detail` keeps it; nothing when no one is known. */
export function byDetail(actor: Actor | undefined | null): Record<string, unknown> {
  if (!actor) return {};
  return {
    by: {
      userId: actor.userId,
      keyId: actor.keyId,
      name: actor.name,
      stationId: actor.stationId,
      stationName: actor.stationName,
    },
  };
}

/** A detail with who made the change added (null stays null when no one is known). */
export function withBy(
  detail: Record<string, unknown> | null,
  actor: Actor | undefined | null,
): Record<string, unknown> | null {
  if (!actor) return detail;
  return { ...(detail ?? {}), ...byDetail(actor) };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Stations' names by id, as this GiftDesk knows them (the hub's own list, a station's copy). */
export async function stationNames(db: Db, accountId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const r of await db
    .selectFrom('eventStations')
    .select(['id', 'name'])
    .where('accountId', '=', accountId)
    .execute())
    out.set(r.id, r.name);
  for (const r of await db
    .selectFrom('hubStations')
    .select(['id', 'name'])
    .where('accountId', '=', accountId)
    .execute())
    out.set(r.id, r.name);
  return out;
}

/** Who, with the words a person reads: the name, else "Station X", else "API key gdk_…". */
export function who(
  p: {
    userId: string | null;
    keyId: string | null;
    name: string | null;
    stationId: string | null;
    stationName?: string | null;
  },
  names: ReadonlyMap<string, string>,
): Who | null {
  const nobody = p.userId === null && p.keyId === null && p.name === null && p.stationId === null;
  if (nobody && (p.stationName ?? null) === null) return null;
  const stationName = p.stationName ?? (p.stationId !== null ? (names.get(p.stationId) ?? null) : null);
  const atStation = stationName !== null ? ` (Station ${stationName})` : '';
  const label =
    (p.name !== null ? `${p.name}${atStation}` : null) ??
    (stationName !== null
      ? `Station ${stationName}`
      : p.stationId !== null
        ? `Station ${p.stationId}`
        : p.keyId !== null
          ? `API key ${p.keyId}`
          : 'someone');
  return { userId: p.userId, keyId: p.keyId, name: p.name, stationId: p.stationId, stationName, label };
}

type Value = HistoryEntry['changes'][number]['before'];
const value = (v: unknown): Value =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;

/** A stored history row (a gift's or a donor's) as the API answers it. */
export function entryOf(
  r: { id: string; action: string; note: string | null; detail: string | null; createdAt: string },
  names: ReadonlyMap<string, string>,
): HistoryEntry {
  let d: Record<string, unknown> | null = null;
  try {
    d = r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null;
  } catch {
    d = null;
  }
  const b = d && typeof d.by === 'object' && d.by !== null ? (d.by as Record<string, unknown>) : null;
  // A station's request made before people were recorded still names its station.
  const station = text(b?.stationId) ?? text(d?.station);
  const by =
    b || station
      ? who(
          {
            userId: text(b?.userId),
            keyId: text(b?.keyId),
            name: text(b?.name),
            stationId: station,
            stationName: text(b?.stationName),
          },
          names,
        )
      : null;
  const fields = Array.isArray(d?.fields) ? (d.fields as unknown[]).filter((f) => typeof f === 'string') : [];
  const listed = Array.isArray(d?.changes) ? (d.changes as unknown[]) : [];
  const changes = listed.flatMap((c) => {
    if (typeof c !== 'object' || c === null) return [];
    const o = c as Record<string, unknown>;
    return typeof o.field === 'string'
      ? [{ field: o.field, before: value(o.before), after: value(o.after) }]
      : [];
  });
  return { id: r.id, action: r.action, note: r.note, detail: d, at: r.createdAt, by, fields, changes };
}
