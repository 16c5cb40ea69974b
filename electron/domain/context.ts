import type { Store } from '../db/store.ts';

/** What every domain function needs: the store and a clock (injectable for tests). */
export interface DomainContext {
  store: Store;
  /** Now, as an ISO 8601 UTC timestamp. */
  now: () => string;
}

export function createContext(
  store: Store,
  now: () => string = () => new Date().toISOString(),
): DomainContext {
  return { store, now };
}

/** Whether a write is to be pushed to HQ (imports of history HQ already has say no). */
export interface WriteOptions {
  push?: boolean;
}
