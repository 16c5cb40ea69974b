/**
 * An event hub for tests: a fresh database (SQLite, or PostgreSQL when the suite runs there),
 * an account with a key of its own (the person hosting), the hub's certificate made in the
 * temp data folder, and the server listening on 127.0.0.1 over HTTPS only, as `serve --hub`
 * runs it. Requests go over real TLS, trusting exactly the hub's certificate.
 */
import https from 'node:https';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { ensureHubCertificate } from '../../electron/hub/certificate.ts';
import { createPairingCode } from '../../electron/hub/pairing.ts';
import { type ServeOptions, startServer } from '../../electron/server/serve.ts';
import type { BucketOptions } from '../../electron/server/token-bucket.ts';
import { type ApiResponse, type TestServer, freshDatabase } from '../helpers/server.ts';

export interface Hub extends TestServer {
  fingerprint: string;
  cert: Buffer;
  /** A fresh pairing code, made as `giftdesk hub code` makes it. */
  code(): Promise<string>;
  /** Pairs a station over HTTPS and confirms it, as a station does; its key as a TestServer of the same account. */
  join(name: string): Promise<Station>;
}

export interface Station extends TestServer {
  stationId: string;
}

/** One HTTPS request that trusts only `ca`, answered as the suite's ApiResponse. */
export function httpsRequest(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
  ca: Buffer,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = https.request(
      url,
      {
        method,
        ca,
        agent: false,
        headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          }
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export async function startHub(
  opts: { rateLimit?: BucketOptions; sync?: ServeOptions['sync'] } = {},
): Promise<Hub> {
  const fresh = await freshDatabase();
  const store = await openStore({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Gala Org');
  const { keyId, secret } = await createApiKey(ctx, accountId, 'the person hosting');
  const cert = await ensureHubCertificate(fresh.dataDir, ['127.0.0.1']);
  const running = await startServer({
    store,
    port: 0,
    host: '127.0.0.1',
    rateLimit: opts.rateLimit ?? { ratePerSecond: 100_000, burst: 100_000 },
    https: { cert: cert.cert, key: cert.key },
    ...(opts.sync ? { sync: opts.sync } : {}),
    hub: { dataDir: fresh.dataDir, account: { id: accountId, fingerprint: cert.fingerprint } },
  });
  const as = (k: { keyId: string; secret: string }) => {
    const auth = { 'x-api-key': k.keyId, authorization: `Bearer ${k.secret}` };
    return (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
      httpsRequest(`${running.url}${p}`, method, body, { ...auth, ...headers }, cert.cert);
  };
  const hub: Hub = {
    url: running.url,
    dataDir: fresh.dataDir,
    store,
    ctx,
    accountId,
    specOnly: false,
    keyId,
    secret,
    running,
    fingerprint: cert.fingerprint,
    cert: cert.cert,
    request: as({ keyId, secret }),
    async otherAccount() {
      const { id } = await createAccount(ctx, 'Other Org');
      const k = await createApiKey(ctx, id, 'other');
      return { accountId: id, keyId: k.keyId, secret: k.secret };
    },
    async close() {
      await running.close();
      await fresh.drop();
    },
    code: async () => (await createPairingCode(ctx, accountId)).code,
    async join(name) {
      const res = await httpsRequest(
        `${running.url}/api/v1/hub/join`,
        'POST',
        { code: await hub.code(), name },
        {},
        cert.cert,
      );
      if (res.status !== 201) throw new Error(`join ${name}: ${res.status} ${res.text}`);
      const j = res.body as { keyId: string; secret: string; station: { id: string } };
      // As a station does once it stored its key: it confirms the pairing with it.
      const confirmed = await as(j)('POST', '/api/v1/hub/join/confirm', { stationId: j.station.id });
      if (confirmed.status !== 200) throw new Error(`confirm ${name}: ${confirmed.status} ${confirmed.text}`);
      return { ...hub, keyId: j.keyId, secret: j.secret, stationId: j.station.id, request: as(j) };
    },
  };
  return hub;
}
