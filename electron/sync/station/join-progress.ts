/**
 * What a join is doing right now, for the person waiting on "Join the event": connecting to the
 * hub and checking its certificate, then bringing the event's donors and gifts (so many of the
 * hub's whole), then finishing. One join at a time per database (a second is refused as busy);
 * kept in memory by the store it writes to, so two GiftDesks in one process (the tests) keep
 * theirs apart. Read by GET /api/v1/event/join/progress while the join's request is open.
 */
import type { Store } from '../../db/store.ts';

export type JoinPhase = 'connecting' | 'bringing' | 'finishing' | 'done' | 'failed';

export interface JoinProgress {
  phase: JoinPhase;
  startedAt: string;
  /** Donors and gifts written here so far. */
  donors: number;
  gifts: number;
  /** What the hub said it holds when it answered the join (null: a hub that does not say). */
  donorsAtHub: number | null;
  giftsAtHub: number | null;
}

const current = new WeakMap<Store, JoinProgress>();
const listeners = new WeakMap<Store, Set<(p: JoinProgress) => void>>();

function publish(store: Store, p: JoinProgress): void {
  current.set(store, p);
  for (const cb of listeners.get(store) ?? []) cb({ ...p });
}

/** The join under way on this database, or the last one's end; null when none ran here. */
export function joinProgressOf(store: Store): JoinProgress | null {
  const p = current.get(store);
  return p ? { ...p } : null;
}

/** Calls `cb` at each step of the joins on this database (tests read the steps in order). */
export function onJoinProgress(store: Store, cb: (p: JoinProgress) => void): () => void {
  const set = listeners.get(store) ?? new Set();
  listeners.set(store, set);
  set.add(cb);
  return () => set.delete(cb);
}

/** The steps of one join: started at `connecting`; each call moves it on. */
export function joinSteps(store: Store, now: () => string) {
  const p: JoinProgress = {
    phase: 'connecting',
    startedAt: now(),
    donors: 0,
    gifts: 0,
    donorsAtHub: null,
    giftsAtHub: null,
  };
  publish(store, p);
  return {
    bringing(holds: { donors: number; gifts: number } | undefined) {
      p.phase = 'bringing';
      p.donorsAtHub = holds?.donors ?? null;
      p.giftsAtHub = holds?.gifts ?? null;
      publish(store, p);
    },
    page(counts: { contacts: number; gifts: number }) {
      p.donors += counts.contacts;
      p.gifts += counts.gifts;
      publish(store, p);
    },
    finishing() {
      p.phase = 'finishing';
      publish(store, p);
    },
    end(ok: boolean) {
      p.phase = ok ? 'done' : 'failed';
      publish(store, p);
    },
  };
}
