/**
 * The push engine under the lease (lease.ts): a pass starts only once this holder has the
 * lease, and then takes over whatever a previous holder had in flight as `unknown`; every
 * request leaves only after the lease was renewed in the database right before it (after the
 * pacer's wait). A request of this engine therefore never leaves after another process took
 * over, and never outlives `requestTimeoutMs`, which the holder id promised (lease.ts).
 */
import type { Store } from '../../db/store.ts';
import type { RemoteClient, RemoteResult, RequestOptions } from '../net/http-client.ts';
import { acquireLease, renewLeaseIn } from '../outbox/lease.ts';
import type { RemoteConfig } from '../remote/settings.ts';

/** Thrown where this holder finds the lease taken by another: nothing may be sent. */
export class LostLease extends Error {}

export const LEASE_LOST = 'another process took over sync (lease lost)';

/**
 * Takes (or renews) the lease for a pass; false when another live holder has it. On a fresh
 * grant, what was in flight under a previous holder (or before a crash) is unknown now. Taken
 * early from a dead process (lease.ts), a request of its may still be running at HQ: those
 * records are looked for only once it must have finished (their nextTryAt; a later backoff
 * already set stays). Everything else goes at once.
 */
export async function takeLeaseForPass(
  store: Store,
  p: { holder: string; nowMs: number; leaseMs: number },
): Promise<boolean> {
  const grant = await acquireLease(store, p.holder, p.nowMs, p.leaseMs);
  if (!grant) return false;
  if (!grant.fresh) return true;
  const settled = grant.inFlightSettledAt;
  await store.write(async (trx) => {
    if (settled !== null) {
      const at = new Date(settled).toISOString();
      await trx
        .updateTable('syncItems')
        .set({ nextTryAt: at })
        .where('state', '=', 'in_flight')
        .where((eb) => eb.or([eb('nextTryAt', 'is', null), eb('nextTryAt', '<', at)]))
        .execute();
    }
    await trx.updateTable('syncItems').set({ state: 'unknown' }).where('state', '=', 'in_flight').execute();
  });
  return true;
}

export interface LeasedRemoteOptions {
  store: Store;
  holder: string;
  leaseMs: number;
  clock: () => number;
  /** The longest a client may wait for an answer (the holder id's promise); a client with a longer deadline is refused. */
  requestTimeoutMs: number;
  /** One client (and pacer) per remote, reused across passes. */
  makeClient: (cfg: RemoteConfig) => RemoteClient;
  /** Cancels every request waiting in a pacer or on the wire (shutdown). */
  signal: AbortSignal;
}

export interface LeasedRemote {
  clientFor(cfg: RemoteConfig): RemoteClient;
  /** One request through the client's pacer; throws LostLease (and sends nothing) when the lease is gone. */
  request(
    client: RemoteClient,
    method: string,
    path: string,
    body?: unknown,
    query?: RequestOptions['query'],
  ): Promise<RemoteResult>;
  /** HQ's latency as measured so far (a moving average of answered requests; 200 ms before any). */
  latencyMs(): number;
  /**
   * The GiftDesk extensions the remote named in its last 2xx answer through `client`
   * (`X-GiftDesk-Extensions`, which a GiftDesk HQ sends and an HQ of the donor API alone does
   * not): empty when it named none, null before any such answer.
   */
  extensions(client: RemoteClient): ReadonlySet<string> | null;
}

/** The header a GiftDesk server names its extensions in (server/app.ts sends it). */
export const EXTENSIONS_HEADER = 'x-giftdesk-extensions';

export function createLeasedRemote(o: LeasedRemoteOptions): LeasedRemote {
  const clients = new Map<string, RemoteClient>();
  const advertised = new WeakMap<RemoteClient, ReadonlySet<string>>();
  let latencyMs = 200;
  return {
    clientFor(cfg) {
      const key = `${cfg.baseUrl}\n${cfg.keyId}\n${cfg.secret}\n${cfg.ratePerSecond}`;
      let c = clients.get(key);
      if (!c) {
        c = o.makeClient(cfg);
        // The holder id promised that no request outlives requestTimeoutMs (lease.ts).
        if (c.timeoutMs > o.requestTimeoutMs)
          throw new Error(
            `sync: the remote client's deadline (${c.timeoutMs} ms) exceeds the engine's requestTimeoutMs (${o.requestTimeoutMs} ms)`,
          );
        clients.set(key, c);
      }
      return c;
    },
    async request(client, method, path, body, query) {
      const t0 = o.clock();
      const r = await client.request(method, path, body, {
        ...(query ? { query } : {}),
        signal: o.signal,
        beforeSend: async () => {
          const ok = await o.store.write((trx) => renewLeaseIn(trx, o.holder, o.clock(), o.leaseMs));
          if (!ok) throw new LostLease();
        },
      });
      const dt = o.clock() - t0;
      if (r.status !== undefined) latencyMs = latencyMs * 0.8 + dt * 0.2;
      // Only HQ's own answers tell: a 429 or 5xx may come from a proxy in front of it.
      if (r.status !== undefined && r.status >= 200 && r.status < 300) {
        const named = r.headers?.get(EXTENSIONS_HEADER) ?? '';
        advertised.set(
          client,
          new Set(
            named
              .split(',')
              .map((x) => x.trim())
              .filter((x) => x !== ''),
          ),
        );
      }
      return r;
    },
    latencyMs: () => latencyMs,
    extensions: (client) => advertised.get(client) ?? null,
  };
}
