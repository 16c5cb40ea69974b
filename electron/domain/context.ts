import type { Db, Store } from '../db/store.ts';

/** What every domain function needs: the store and a clock (injectable for tests). */
export interface DomainContext {
  store: Store;
  /** Now, as an ISO 8601 UTC timestamp. */
  now: () => string;
  /**
   * Who makes the changes of this request (a server's request context: `actingAs`); absent for
   * the engine's own writes (a pull, a feed applied, an import from the command line).
   */
  actor?: Actor;
}

/**
 * Who makes a change: the person signed in (their id and name), else the key that made the
 * request, and the event station it came from (a station's key at its hub).
 */
export interface Actor {
  userId: string | null;
  keyId: string | null;
  /** The person's name as it is now (kept with the change: a later rename does not rewrite it). */
  name: string | null;
  stationId: string | null;
  stationName: string | null;
}

/** The same context, acting as `actor` (one per request; the store and clock shared). */
export function actingAs(ctx: DomainContext, actor: Actor): DomainContext {
  return { ...ctx, actor };
}

export function createContext(
  store: Store,
  now: () => string = () => new Date().toISOString(),
): DomainContext {
  return { store, now };
}

/** The reference a window's entry key is kept under (`entry:`, a prefix no sync reference has). */
export function entryReference(opts: WriteOptions): string | null {
  return opts.entryKey ? `entry:${opts.entryKey}` : null;
}

/** How a write is made. */
export interface WriteOptions {
  /** Whether it is to be pushed to HQ (imports of history HQ already has say no). */
  push?: boolean;
  /**
   * False for a record a person typed in the app's own window (a session key): a `gd:` line
   * at the end of its notes, or a `gd:` tag, is text they typed (pasted from another gift,
   * say), not a sync reference: no create-once by it, and it is not kept as the record's
   * reference, so the sync sends the record under its own id. Only a sync client's create
   * (another GiftDesk's engine, with an API key) carries a record's identity from where it was
   * typed (#shared/sync-reference.ts).
   */
  syncReference?: boolean;
  /**
   * The key a window minted for the record it tries to save (`entryKey`): a create with a key
   * the account holds already answers with that record, as a sync reference does. Kept beside
   * the references under its own prefix (entryReference).
   */
  entryKey?: string;
  /**
   * Run inside a create's transaction once the record is written (not when the create answers
   * with a record held already): the server notes for its own sync what the request said of
   * the record (a station's resent gift may be at HQ already).
   */
  onCreated?: (trx: Db, id: string) => Promise<void>;
}
