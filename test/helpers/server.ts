/**
 * A real GiftDesk server for tests: a fresh SQLite file in a temp folder, an account, an API
 * key, listening on 127.0.0.1:0. Requests go over real HTTP with fetch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount, createApiKey } from '../../electron/domain/accounts.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  store: Store;
  ctx: DomainContext;
  accountId: string;
  keyId: string;
  secret: string;
  running: RunningServer;
  /** fetch with this key's headers; `body` objects are sent as JSON. */
  request(method: string, pathAndQuery: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
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

export async function rawRequest(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
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

export async function startTestServer(opts: { rateLimit?: { ratePerSecond: number; burst: number } } = {}): Promise<TestServer> {
  const dataDir = tempDir();
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Test Org');
  const { keyId, secret } = await createApiKey(ctx, accountId, 'tests');
  const running = await startServer({ store, port: 0, rateLimit: opts.rateLimit ?? { ratePerSecond: 100_000, burst: 100_000 } });
  const auth = { 'x-api-key': keyId, authorization: `Bearer ${secret}` };
  return {
    url: running.url,
    dataDir,
    store,
    ctx,
    accountId,
    keyId,
    secret,
    running,
    request: (method, p, body, headers = {}) => rawRequest(`${running.url}${p}`, method, body, { ...auth, ...headers }),
    async otherAccount() {
      const { id } = await createAccount(ctx, 'Other Org');
      const k = await createApiKey(ctx, id, 'other');
      return { accountId: id, keyId: k.keyId, secret: k.secret };
    },
    async close() {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
