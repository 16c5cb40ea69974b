/**
 * Starting and stopping the server over a store: listen on 127.0.0.1 unless told
 * otherwise, and on shutdown finish in-flight requests, then close the database.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Store } from '../db/store.ts';
import { createContext, type DomainContext } from '../domain/context.ts';
import { buildServer, type ServerPlugin } from './app.ts';
import { isLoopbackBind } from './hosts.ts';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  ctx: DomainContext;
  close(): Promise<void>;
}

export interface ServeOptions {
  store: Store;
  port?: number;
  host?: string;
  logger?: FastifyServerOptions['logger'];
  rateLimit?: { ratePerSecond: number; burst: number };
  plugins?: ServerPlugin[];
}

export const LOG_REDACT = ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', '*.secret'];

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const ctx = createContext(opts.store);
  const app = await buildServer({
    ctx,
    logger: opts.logger,
    rateLimit: opts.rateLimit,
    allowAnyHost: !isLoopbackBind(host),
    plugins: opts.plugins,
  });
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shown}:${port}`,
    app,
    ctx,
    close() {
      closing ??= (async () => {
        await app.close(); // stops accepting, waits for in-flight requests
        await opts.store.close(); // flushes queued writes, checkpoints, closes the file
      })();
      return closing;
    },
  };
}
