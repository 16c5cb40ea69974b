/**
 * The engine's default client for a remote: net/'s RemoteClient (http-client.ts) with its
 * Pacer at the remote's configured rate, and the default request deadline, which the engine
 * and the scheduler use when they are given none (engine.ts, scheduler.ts).
 */
import { createRemoteClient, type RemoteClient } from '../net/http-client.ts';
import { createPacer } from '../net/pacer.ts';
import { type FetchFn, pinnedFetch } from '../net/pinned-fetch.ts';
import type { RemoteConfig } from '../remote/settings.ts';

/**
 * A request's deadline: well inside the lease (lease.ts), so a request never outlives it; a
 * process taking over from a dead one waits twice this before reconciling its in-flight records.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * How requests to a remote are sent: Node's fetch to an HQ; to an event hub, only over TLS to
 * the certificate pinned at join (pinned-fetch.ts). A hub remote without a fingerprint is
 * never reached (the pin check refuses every certificate).
 */
export function remoteFetch(cfg: Pick<RemoteConfig, 'kind' | 'pinnedFingerprint'>): FetchFn | undefined {
  if (cfg.kind !== 'hub') return undefined;
  return pinnedFetch(cfg.pinnedFingerprint ?? `sha256:${'00'.repeat(32)}`);
}

/** net/'s client and pacer for a remote, at its configured rate. */
export function defaultClient(cfg: RemoteConfig, timeoutMs: number = REQUEST_TIMEOUT_MS): RemoteClient {
  const send = remoteFetch(cfg);
  return createRemoteClient({
    baseUrl: cfg.baseUrl,
    keyId: cfg.keyId,
    secret: cfg.secret,
    pacer: createPacer({ ratePerSecond: cfg.ratePerSecond }),
    timeoutMs,
    ...(send ? { fetch: send } : {}),
  });
}
