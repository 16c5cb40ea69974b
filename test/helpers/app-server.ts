/**
 * A real GiftDesk server serving the built renderer, with the one-time links `npm start`
 * prints: the browser tests' server (test/browser/helpers.ts re-exports it), and a bench's
 * server in a process of its own (bench/entry-while-printing-server.ts), which must not load
 * the browser's driver.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RENDERER_DIST } from '../../electron/cli/renderer-build.ts';
import { createOneTimeTokens, type OneTimeTokens } from '../../electron/server/one-time-tokens.ts';
import { rendererStatic } from '../../electron/server/renderer-static.ts';
import type { ServeOptions } from '../../electron/server/serve.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface AppServer extends TestServer {
  tokens: OneTimeTokens;
  /** A fresh one-time link to the app, as `npm start` prints it. */
  appLink(): string;
}

/**
 * A real server on a temp data dir serving the built renderer, with an account and key
 * (server.request). `rateLimit`: the per-key script limit (the test default is out of reach;
 * pass the spec's 20/s to see what a user would meet).
 */
export async function startAppServer(
  opts: {
    sync?: ServeOptions['sync'];
    rateLimit?: { ratePerSecond: number; burst: number };
    /** The event hub's routes, as the app's own server has them. */
    hub?: boolean;
    /** The hub's idea of this machine's network addresses (default: the interfaces'). */
    hubMachineAddresses?: string[];
  } = {},
): Promise<AppServer> {
  if (!fs.existsSync(path.join(RENDERER_DIST, 'index.html')))
    throw new Error('dist/renderer is not built (the browser project’s global setup builds it)');
  const tokens = createOneTimeTokens();
  const server = await startTestServer({
    plugins: [rendererStatic({ dir: RENDERER_DIST, browserSessions: { tokens } })],
    ...(opts.sync ? { sync: opts.sync } : {}),
    ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.hub ? { hub: true } : {}),
    ...(opts.hubMachineAddresses ? { hubMachineAddresses: opts.hubMachineAddresses } : {}),
  });
  return Object.assign(server, { tokens, appLink: () => `${server.url}/#token=${tokens.issue()}` });
}
