/**
 * Hosting an event from a running server: the hub's HTTPS listener beside the server's own
 * (the app's loopback one), on the venue's network, with the hub's certificate (made on the
 * first time, kept in the data folder), over the same database, domain context and hub state.
 * Or, for `giftdesk serve --hub`, the server's one listener is the hub already.
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/index.ts';
import {
  type HubHosting,
  type HubServices,
  ensureHubCertificate,
  hubUrl,
  saveHubSettings,
} from '../hub/index.ts';
import { type ServerOptions, buildServer } from './app.ts';

/** Where "Host this event" listens unless told: every network of the machine, port 4871. */
export const DEFAULT_HUB_HOST = '0.0.0.0';
export const DEFAULT_HUB_PORT = 4871;

export interface HubHostingHandle extends HubHosting {
  /** Stops the hub's own listener (when one was started); the server's close calls it. */
  close(): Promise<void>;
}

/** The hosting of a server whose one listener is the account's hub (`serve --hub`). */
export function servingAsHub(accountId: string, url: string): HubHostingHandle {
  return {
    async host(opts) {
      if (opts.accountId !== accountId) throw anotherEvent(accountId);
      return { url };
    },
    current: () => ({ url, accountId }),
    close: async () => undefined,
  };
}

function anotherEvent(accountId: string): DomainError {
  return new DomainError(
    'conflict',
    'hub_hosting_another_account',
    `This GiftDesk hosts the event of account ${accountId} already; stop it before hosting another`,
    [{ field: 'accountId', issue: 'is not the account this GiftDesk hosts an event for' }],
  );
}

/**
 * The hosting of a running server: `host` starts the hub's listener once (later calls for the
 * same account answer its address), with the server's own options for everything but TLS.
 */
export function hostingBeside(
  hub: HubServices,
  dataDir: string,
  server: Pick<ServerOptions, 'logger' | 'rateLimit' | 'sync' | 'bodyLimitBytes' | 'plugins'>,
): HubHostingHandle {
  let listener: { app: FastifyInstance; url: string; accountId: string } | null = null;
  let starting: Promise<{ url: string }> | null = null;

  async function start(accountId: string, host: string, port: number): Promise<{ url: string }> {
    const cert = await ensureHubCertificate(dataDir, [host]);
    const app = await buildServer({
      ctx: hub.ctx,
      ...server,
      allowAnyHost: true,
      https: { cert: cert.cert, key: cert.key },
      hub,
    });
    try {
      await app.listen({ port, host });
    } catch (err) {
      await app.close();
      // Whatever the system says of the address (taken, not this machine's, not an address):
      // the caller's to change, never a 500.
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      const taken = code === 'EADDRINUSE';
      throw new DomainError(
        'conflict',
        'hub_address_unavailable',
        `The event cannot be hosted on ${host}:${port}: ${taken ? 'another program uses that port' : `this machine cannot listen there (${code})`}. Choose another ${taken ? 'port' : 'address'}.`,
        [{ field: taken ? 'port' : 'host', issue: 'cannot be listened on' }],
      );
    }
    const address = app.server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    const url = hubUrl(host, bound);
    await saveHubSettings(hub.ctx, { accountId, fingerprint: cert.fingerprint, url, bindHost: host });
    listener = { app, url, accountId };
    return { url };
  }

  const hostedAccount = (): string | null => listener?.accountId ?? null;

  return {
    async host(opts) {
      if (listener) {
        if (listener.accountId !== opts.accountId) throw anotherEvent(listener.accountId);
        return { url: listener.url };
      }
      starting ??= start(
        opts.accountId,
        opts.host ?? DEFAULT_HUB_HOST,
        opts.port ?? DEFAULT_HUB_PORT,
      ).finally(() => {
        starting = null;
      });
      const started = await starting;
      const owner = hostedAccount();
      if (owner !== null && owner !== opts.accountId) throw anotherEvent(owner); // two accounts asked at once
      return started;
    },
    current: () => (listener ? { url: listener.url, accountId: listener.accountId } : null),
    async close() {
      await starting?.catch(() => undefined);
      await listener?.app.close();
      listener = null;
    },
  };
}
