/**
 * The reconciliation's shapes, shared by reconcile.ts (what is due, the PUT and DELETE
 * resends) and sweeps.ts (the sweeps): a read's answer, what a run is given, what it did, and
 * a create of unknown outcome.
 */
import type { RemoteKind } from '../net/remote-words.ts';
import type { Store } from '../../db/store.ts';
import type { ItemRow, PushEntity } from '../outbox/items.ts';

export type Read =
  | { ok: true; body: unknown; headers?: Headers; receivedAt: number }
  | { ok: false; result: 'failed' | 'auth'; message: string; status?: number };

export interface ReconcileDeps {
  store: Store;
  accountId: string;
  now: () => number;
  /** One GET through the engine's client (pacer, lease); passing failures retried by the caller. */
  get: (path: string, query: Record<string, string | number>) => Promise<Read>;
  /** Backs a record off (a failed read). */
  fail: (e: { entityType: PushEntity; entityId: string }, why: string) => Promise<void>;
  /** The request deadline: a create is not looked for before attemptAt + this. */
  deadlineMs: number;
  /** How long a due create waits for the others to become due, so one sweep finds them all. */
  graceMs: number;
  progress: (n: number) => void;
  /** Whose words the sentences are in: HQ's, or the event hub's at a station. */
  kind?: RemoteKind | undefined;
}

export interface ReconcileResult {
  result: 'ok' | 'failed' | 'auth' | 'waiting';
  /** Records found at HQ (linked) or found absent (pending again). */
  resolved: number;
  parked: number;
}

export interface Create {
  item: ItemRow;
  due: boolean;
}
