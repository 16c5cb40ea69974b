/**
 * A real GiftDesk server for tests: a fresh SQLite file in a temp folder, an account, an API
 * key, listening on 127.0.0.1:0. Requests go over real HTTP with fetch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import type { ServerPlugin } from '../../electron/server/app.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../electron/server/serve.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  /** The PostgreSQL database's URL when the server runs on PostgreSQL (a command line is pointed at it). */
  databaseUrl?: string;
  store: Store;
  ctx: DomainContext;
  accountId: string;
  keyId: string;
  secret: string;
  running: RunningServer;
  /** Serving only the donor API's routes (`serve --spec-only`). */
  specOnly: boolean;
  /** fetch with this key's headers; `body` objects are sent as JSON. */
  request(
    method: string,
    pathAndQuery: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  /** A second account with its own key, for cross-account checks. */
  otherAccount(): Promise<{ accountId: string; keyId: string; secret: string }>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
  body: any;
  text: string;
}

export function tempDir(prefix = 'giftdesk-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function rawRequest(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The engine the suite runs on: GIFTDESK_TEST_ENGINE=postgres (with DATABASE_URL) or sqlite. */
export const TEST_ENGINE: 'sqlite' | 'postgres' =
  process.env.GIFTDESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A fresh, empty database for one test server: a temp SQLite file, or on PostgreSQL a new
 * database created through DATABASE_URL's server (dropped again by `drop`).
 */
export async function freshDatabase(
  engine: 'sqlite' | 'postgres' = TEST_ENGINE,
): Promise<{ dataDir: string; databaseUrl?: string; drop(): Promise<void> }> {
  const dataDir = tempDir();
  if (engine === 'sqlite') {
    return { dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const base = process.env.DATABASE_URL;
  if (!base)
    throw new Error('GIFTDESK_TEST_ENGINE=postgres needs DATABASE_URL (a role that may CREATE DATABASE)');
  const name = `giftdesk_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      // FORCE cannot end an autovacuum worker that happens to be in the database for a role
      // without pg_signal_backend (42501); such a worker is brief, so ask again.
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            await c.query(`drop database if exists ${name} with (force)`);
            break;
          } catch (e) {
            if ((e as { code?: string }).code !== '42501' || attempt >= 40) throw e;
            await new Promise((r) => setTimeout(r, 250));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * `engine` overrides GIFTDESK_TEST_ENGINE for this one server: the sync suites keep the
 * desktop side on an SQLite file while the remote (HQ) follows the run's engine.
 * `plugins`: extra routes (the browser tests serve the renderer this way).
 */
export async function startTestServer(
  opts: {
    rateLimit?: { ratePerSecond: number; burst: number };
    engine?: 'sqlite' | 'postgres';
    plugins?: ServerPlugin[];
    synchronous?: 'FULL' | 'NORMAL';
    sync?: ServeOptions['sync'];
    /** Give the server the event hub (its routes; hosting from it keeps the certificate in its data folder). */
    hub?: boolean;
    /** The hub's idea of this machine's network addresses (default: the interfaces'). */
    hubMachineAddresses?: string[];
    /** Only the donor API's routes, as documented (`serve --spec-only`): no create-once, no extension. */
    specOnly?: boolean;
    /** The domain's clock, for the test and the server alike (moved by the test). */
    now?: () => string;
  } = {},
): Promise<TestServer> {
  const fresh = await freshDatabase(opts.engine);
  const dataDir = fresh.dataDir;
  const store = await openStore({
    dataDir,
    databaseUrl: fresh.databaseUrl,
    ...(opts.synchronous ? { synchronous: opts.synchronous } : {}),
  });
  const ctx = createContext(store, opts.now);
  const { id: accountId } = await createAccount(ctx, 'Test Org');
  const { keyId, secret } = await createApiKey(ctx, accountId, 'tests');
  // GIFTDESK_TEST_SPEC_ONLY=1 runs a suite of the donor API's routes against a spec-only server.
  const specOnly = opts.specOnly ?? process.env.GIFTDESK_TEST_SPEC_ONLY === '1';
  const running = await startServer({
    store,
    port: 0,
    rateLimit: opts.rateLimit ?? { ratePerSecond: 100_000, burst: 100_000 },
    plugins: opts.plugins,
    ...(opts.sync ? { sync: opts.sync } : {}),
    ...(opts.hub
      ? {
          hub: {
            dataDir,
            ...(opts.hubMachineAddresses ? { machineAddresses: () => [...opts.hubMachineAddresses!] } : {}),
          },
        }
      : {}),
    dataDir,
    ...(specOnly ? { specOnly: true } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const auth = { 'x-api-key': keyId, authorization: `Bearer ${secret}` };
  return {
    url: running.url,
    dataDir,
    ...(fresh.databaseUrl ? { databaseUrl: fresh.databaseUrl } : {}),
    store,
    ctx,
    accountId,
    keyId,
    secret,
    running,
    specOnly,
    request: (method, p, body, headers = {}) =>
      rawRequest(`${running.url}${p}`, method, body, { ...auth, ...headers }),
    async otherAccount() {
      const { id } = await createAccount(ctx, 'Other Org');
      const k = await createApiKey(ctx, id, 'other');
      return { accountId: id, keyId: k.keyId, secret: k.secret };
    },
    async close() {
      await running.close();
      await fresh.drop();
    },
  };
}
