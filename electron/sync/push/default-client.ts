/**
 * The engine's default client for a remote: net/'s RemoteClient (http-client.ts) with its
 * Pacer at the remote's configured rate, and the default request deadline, which the engine
 * and the scheduler use when they are given none (engine.ts, scheduler.ts).
 */
import { createRemoteClient, type RemoteClient } from '../net/http-client.ts';
import { createPacer } from '../net/pacer.ts';
import type { RemoteConfig } from '../remote/settings.ts';

/**
 * A request's deadline: well inside the lease (lease.ts), so a request never outlives it; a
 * process taking over from a dead one waits twice this before reconciling its in-flight records.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** net/'s client and pacer for a remote, at its configured rate. */
export function defaultClient(cfg: RemoteConfig, timeoutMs: number = REQUEST_TIMEOUT_MS): RemoteClient {
  return createRemoteClient({
    baseUrl: cfg.baseUrl,
    keyId: cfg.keyId,
    secret: cfg.secret,
    pacer: createPacer({ ratePerSecond: cfg.ratePerSecond }),
    timeoutMs,
  });
}
