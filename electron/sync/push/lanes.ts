/**
 * Lanes: what a round of the push works on, and in which order. A lane is a contact with its
 * donations; a lane's records go strictly one after another (a gift needs its donor's HQ id,
 * a record still of unknown outcome holds back the records behind it), while lanes run side
 * by side, as many as the remote's rate × HQ's latency needs.
 */
import type { Db } from '../../db/store.ts';
import { listPendingEntities, type PendingEntity } from '../outbox/outbox.ts';
import type { PushEntity } from '../outbox/items.ts';

/** Records with changes still to go: unknown/in-flight ones first (they must be reconciled), then pending ones, oldest change first. */
export async function gatherWork(db: Db, accountId: string): Promise<PendingEntity[]> {
  const unknown = await db
    .selectFrom('syncItems')
    .select(['entityType', 'entityId'])
    .where('accountId', '=', accountId)
    .where('state', 'in', ['unknown', 'in_flight'])
    .execute();
  const pending = await listPendingEntities(db, accountId, 5000);
  const seen = new Set<string>();
  const out: PendingEntity[] = [];
  for (const u of unknown) {
    const k = `${u.entityType}:${u.entityId}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ entityType: u.entityType as PushEntity, entityId: u.entityId, firstSeq: 0 });
  }
  for (const e of pending) {
    const k = `${e.entityType}:${e.entityId}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e);
  }
  return out;
}

/**
 * Groups the work into lanes, keyed by the contact: a donation goes in its donor's lane (the
 * donor as the donation row says, or, for a gift no longer here, the lane its item was filed
 * in). Within a lane the work's order is kept.
 */
export async function buildLanes(db: Db, work: PendingEntity[]): Promise<Map<string, PendingEntity[]>> {
  const donationIds = work.filter((e) => e.entityType === 'donation').map((e) => e.entityId);
  const donor = new Map<string, string>();
  for (let i = 0; i < donationIds.length; i += 500) {
    const chunk = donationIds.slice(i, i + 500);
    for (const r of await db
      .selectFrom('donations')
      .select(['id', 'contactId'])
      .where('id', 'in', chunk)
      .execute())
      donor.set(r.id, r.contactId);
    for (const r of await db
      .selectFrom('syncItems')
      .select(['entityId', 'laneId'])
      .where('entityType', '=', 'donation')
      .where('entityId', 'in', chunk)
      .execute()) {
      if (!donor.has(r.entityId)) donor.set(r.entityId, r.laneId);
    }
  }
  const lanes = new Map<string, PendingEntity[]>();
  for (const e of work) {
    const lane = e.entityType === 'contact' ? e.entityId : (donor.get(e.entityId) ?? e.entityId);
    let list = lanes.get(lane);
    if (!list) lanes.set(lane, (list = []));
    list.push(e);
  }
  return lanes;
}

/** The lane a record's item is filed in: the contact itself, or a donation's donor. */
export async function laneIdFor(db: Db, e: { entityType: PushEntity; entityId: string }): Promise<string> {
  if (e.entityType === 'contact') return e.entityId;
  const d = await db
    .selectFrom('donations')
    .select('contactId')
    .where('id', '=', e.entityId)
    .executeTakeFirst();
  return d?.contactId ?? e.entityId;
}

/**
 * Lanes in flight: enough to keep the rate busy over HQ's latency (rate × latency + 1), at
 * most 16, never more than there are lanes, at least one.
 */
export function laneWidth(ratePerSecond: number, latencyMs: number, lanes: number): number {
  return Math.max(1, Math.min(16, Math.ceil((ratePerSecond * latencyMs) / 1000) + 1, lanes));
}

/** What the lane does after a record: go on with its next one, or leave the rest of the lane for a later round. */
export type LaneVerdict = 'next' | 'endLane';

export interface RunLanesOptions<T> {
  lanes: readonly (readonly T[])[];
  /** How many lanes may run at once; asked again after every record (the latency is measured as the pass goes, so the pool grows when HQ is slower than first guessed). */
  width: () => number;
  /** True once the pass must stop: no record is started after that. */
  stopped: () => boolean;
  step: (record: T) => Promise<LaneVerdict>;
}

/**
 * Runs the lanes side by side, each in order. A step that throws stops every lane from
 * starting another record; once the running ones have finished, the error is thrown.
 */
export async function runLanes<T>(o: RunLanesOptions<T>): Promise<void> {
  let nextLane = 0;
  const workers: Promise<void>[] = [];
  let crashed: { err: unknown } | null = null;
  const halted = () => o.stopped() || crashed !== null;
  const grow = () => {
    while (workers.length < o.width() && nextLane < o.lanes.length && !halted()) {
      workers.push(
        worker().catch((err: unknown) => {
          crashed ??= { err };
        }),
      );
    }
  };
  const worker = async (): Promise<void> => {
    while (!halted() && nextLane < o.lanes.length) {
      const lane = o.lanes[nextLane++]!;
      for (const record of lane) {
        if (halted()) break;
        if ((await o.step(record)) === 'endLane') break;
        grow();
      }
    }
  };
  grow();
  for (let i = 0; i < workers.length; i++) await workers[i];
  if (crashed) throw (crashed as { err: unknown }).err;
}
