/**
 * Starting and stopping the server over a store: listen on 127.0.0.1 unless told
 * otherwise, and on shutdown finish in-flight requests, then close the database.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Store } from '../db/store.ts';
import { forgetEndedSessionKeys, revokeOrphanedSessionKeys } from '../domain/accounts/index.ts';
import { createContext, type DomainContext } from '../domain/index.ts';
import type { KeySource } from '../sync/index.ts';
import { createSyncScheduler, matchContactByEmail, type SyncScheduler } from '../sync/index.ts';
import { type HubServices, createHubServices, forgetServing, hubUrl, saveHubSettings } from '../hub/index.ts';
import { failInterruptedRuns } from '../letters/index.ts';
import { buildServer, type ServerPlugin } from './app.ts';
import { type HubHostingHandle, hostingBeside, servingAsHub } from './hub-host.ts';
import { isLoopbackBind } from './hosts.ts';
import type { BucketOptions } from './token-bucket.ts';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  ctx: DomainContext;
  /** The sync scheduler, when this server syncs to HQ. */
  sync: SyncScheduler | null;
  /** The event hub's state (the feed's waiters, the wrong-code limit, hosting), when `hub` was given. */
  hub: HubServices | null;
  close(): Promise<void>;
}

export interface ServeOptions {
  store: Store;
  port?: number;
  host?: string;
  logger?: FastifyServerOptions['logger'];
  /** The per-key rate limit (`now`: the clock it is counted on, for tests). */
  rateLimit?: BucketOptions;
  plugins?: ServerPlugin[];
  /**
   * Sync to HQ: where the secret's key lives, and whether this process runs the scheduler
   * (accounts without HQ settings cost one indexed query a second; one process per database
   * pushes at a time, whatever the others do: the lease).
   */
  sync?: { keys: KeySource; run: boolean };
  /** Serve HTTPS with this certificate and key (PEM). */
  https?: { cert: Buffer; key: Buffer };
  /**
   * The event hub: its routes (/api/v1/hub/…) and the gate on stations' keys. `dataDir`: where
   * its certificate lives (this server can then host an event beside its own listener: POST
   * /hub/host). `account`: this server's one listener IS that account's hub (`serve --hub`;
   * `https` must be the hub's certificate, `fingerprint` its). Without it, no hub routes.
   */
  hub?: {
    dataDir?: string;
    account?: { id: string; fingerprint: string };
    /** The machine's network addresses (default: its interfaces'); tests give their own. */
    machineAddresses?: () => string[];
    /** How often the feed's long polls look at the database without being told (default 500 ms). */
    feedIntervalMs?: number;
  };
  /** The data folder: letter print runs write their PDFs in it (`letters/`). */
  dataDir?: string;
  /** Only the donor API's routes, as documented (app.ts `specOnly`); no hub then. */
  specOnly?: boolean;
  /** Reverse proxies whose X-Forwarded-For is believed (app.ts `trustProxy`). */
  trustProxy?: string[];
  /** The domain's clock (tests move it: a session's idle end, the sign-in throttle's wait). */
  now?: () => string;
}

/** Said at start when the API is reachable from the network over plain HTTP. */
export function plainHttpWarning(host: string): string {
  return `Serving plain HTTP on ${host}, beyond this machine: API keys and donor data cross the network unencrypted. Give --tls-cert and --tls-key, or bind 127.0.0.1 behind a reverse proxy that terminates TLS (docs/hq.md: "TLS").`;
}

export const LOG_REDACT = ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', '*.secret'];

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const ctx = createContext(opts.store, opts.now);
  // Session keys of processes that died without shutting down (kill -9, a crash) are revoked
  // before anything is served.
  await revokeOrphanedSessionKeys(ctx);
  // Ended sessions (of earlier runs, or ended by a person) are not kept as keys.
  await forgetEndedSessionKeys(ctx);
  // Letter print runs left 'rendering' by a process that is gone are failed, so their
  // progress bars end (a run printing in another live process is left alone).
  await failInterruptedRuns(ctx);
  // Until this server serves an event again, no station's earlier report makes it complete.
  await forgetServing(ctx);
  let scheduler: SyncScheduler | null = null;
  if (opts.sync?.run) {
    scheduler = createSyncScheduler({
      store: opts.store,
      keys: opts.sync.keys,
      matchContact: matchContactByEmail,
      onError: (err) => app.log.error({ err }, 'sync pass failed'),
      onPass: (r) => {
        for (const a of r.accounts) if (a.requests > 0 || a.stopped) app.log.info({ sync: a }, 'sync pass');
      },
    });
  }
  const hub =
    opts.hub && !opts.specOnly
      ? createHubServices(ctx, {
          dataDir: opts.hub.dataDir ?? null,
          ...(opts.hub.machineAddresses ? { machineAddresses: opts.hub.machineAddresses } : {}),
          ...(opts.hub.feedIntervalMs ? { feedIntervalMs: opts.hub.feedIntervalMs } : {}),
          onError: (err) => app.log.warn({ err }, 'event hub'),
        })
      : null;
  const common = {
    logger: opts.logger,
    rateLimit: opts.rateLimit,
    ...(opts.sync ? { sync: { keys: opts.sync.keys, scheduler } } : {}),
  };
  const app = await buildServer({
    ctx,
    ...common,
    allowAnyHost: !isLoopbackBind(host),
    plugins: opts.plugins,
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.https ? { https: opts.https } : {}),
    ...(hub ? { hub } : {}),
    ...(opts.specOnly ? { specOnly: true } : {}),
    ...(opts.trustProxy ? { trustProxy: opts.trustProxy } : {}),
  });
  await app.listen({ port: opts.port ?? 0, host });
  if (!isLoopbackBind(host) && !opts.https) app.log.warn({ host, tls: false }, plainHttpWarning(host));
  scheduler?.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let url = `${opts.https ? 'https' : 'http'}://${shown}:${port}`;
  let hosting: HubHostingHandle | null = null;
  const asHub = opts.hub?.account;
  if (asHub && opts.https) {
    url = hubUrl(host, Number(port));
    await saveHubSettings(ctx, { accountId: asHub.id, fingerprint: asHub.fingerprint, url, bindHost: host });
    hosting = servingAsHub(asHub.id, url);
  } else if (hub && opts.hub?.dataDir) {
    // The app's screens too (when this server serves them): a person at another machine's
    // browser signs in at the hub's address.
    hosting = hostingBeside(hub, opts.hub.dataDir, { ...common, plugins: opts.plugins });
  }
  if (hub) hub.hosting = hosting;
  let closing: Promise<void> | null = null;
  return {
    url,
    app,
    ctx,
    sync: scheduler,
    hub,
    close() {
      closing ??= (async () => {
        await scheduler?.stop(); // requests in flight end (aborted at the pacer), the lease is given up
        hub?.close(); // the feed's long polls answer now instead of holding the close up
        await hosting?.close(); // the hub's own listener, when this server hosts an event beside itself
        await app.close(); // stops accepting, waits for in-flight requests
        await opts.store.close(); // flushes queued writes, checkpoints, closes the file
      })();
      return closing;
    },
  };
}
