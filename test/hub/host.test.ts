/**
 * "Host this event" from a running server (what Settings → Event calls): POST /api/v1/hub/host
 * starts the hub's HTTPS listener beside the app's loopback one, over the same database,
 * answers the hub's address, fingerprint and a fresh pairing code with the join link; the
 * stations pair and write through it and the app sees it at once; GET /hub and POST /hub/codes
 * say the same hub; closing the server closes both listeners.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseJoinLink } from '#shared/hub-address.ts';
import { HubCode, HubInfo } from '#shared/schemas/hub.ts';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { expectError, expectStatus } from '../helpers/api-fixtures.ts';
import { type ApiResponse, freshDatabase, rawRequest } from '../helpers/server.ts';
import { httpsRequest } from './hub-rig.ts';

let running: RunningServer;
let drop: () => Promise<void>;
let accountId: string;
let app: (method: string, p: string, body?: unknown) => Promise<ApiResponse>;
let otherAccount: string;

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  const store = await openStore({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
  const ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Gala Org')).id;
  otherAccount = (await createAccount(ctx, 'Other Org')).id;
  const key = await createApiKey(ctx, accountId, 'the app');
  running = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    hub: { dataDir: fresh.dataDir },
  });
  const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  app = (method, p, body) => rawRequest(`${running.url}${p}`, method, body, auth);
});
afterAll(async () => {
  await running?.close();
  await drop?.();
});

describe('hosting the event from the running app', () => {
  let info: z.infer<typeof HubInfo>;

  it('before hosting, GET /hub says the account hosts nothing (404)', async () => {
    expectError(await app('GET', `/api/v1/hub?accountId=${accountId}`), 404, { code: 'hub_not_hosted' });
  });

  it('POST /hub/host starts the HTTPS listener and answers address, fingerprint, code and link', async () => {
    info = HubInfo.parse(
      expectStatus(await app('POST', '/api/v1/hub/host', { accountId, host: '127.0.0.1', port: 0 }), 200),
    );
    expect(info).toMatchObject({ accountId, hosting: true });
    expect(info.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(info.url).not.toBe(running.url);
    expect(info.fingerprint).toMatch(/^sha256:([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
    expect(parseJoinLink(info.joinLink!)).toEqual({
      url: info.url,
      code: info.pairingCode!.replace('-', ''),
      fingerprint: info.fingerprint,
    });
    // Asked again: the same hub (no second listener), and a fresh code.
    const again = HubInfo.parse(expectStatus(await app('POST', '/api/v1/hub/host', { accountId }), 200));
    expect(again.url).toBe(info.url);
    expect(again.pairingCode).not.toBe(info.pairingCode);
    // Another account's event cannot be hosted beside it.
    expectError(await app('POST', '/api/v1/hub/host', { accountId: otherAccount }), 403, {
      code: 'account_forbidden',
    });
  });

  it('a station pairs and writes over the HTTPS listener; the app sees it', async () => {
    const { certificate } = await peerCertificate(info.url!);
    const joined = expectStatus(
      await httpsRequest(
        `${info.url}/api/v1/hub/join`,
        'POST',
        { code: info.pairingCode, name: 'Table A' },
        {},
        certificate,
      ),
      201,
    );
    const key = { 'x-api-key': joined.keyId, authorization: `Bearer ${joined.secret}` };
    // It confirms that it kept its key, as a station does (until then the hub does not list it).
    expectStatus(
      await httpsRequest(
        `${info.url}/api/v1/hub/join/confirm`,
        'POST',
        { stationId: joined.station.id },
        key,
        certificate,
      ),
      200,
    );
    const donor = expectStatus(
      await httpsRequest(
        `${info.url}/api/v1/contacts`,
        'POST',
        { accountId, firstName: 'Maria', lastName: 'Lopez' },
        key,
        certificate,
      ),
      201,
    );
    expectStatus(await app('GET', `/api/v1/contacts/${donor.id}?accountId=${accountId}`), 200);
    const stations = expectStatus(await app('GET', `/api/v1/hub/stations?accountId=${accountId}`), 200);
    expect(stations.stations.map((s: { name: string }) => s.name)).toEqual(['Table A']);
  });

  it('GET /hub and POST /hub/codes say the same hub', async () => {
    const got = HubInfo.parse(expectStatus(await app('GET', `/api/v1/hub?accountId=${accountId}`), 200));
    expect(got).toMatchObject({
      url: info.url,
      fingerprint: info.fingerprint,
      hosting: true,
      joinLink: null,
    });
    const code = HubCode.parse(expectStatus(await app('POST', '/api/v1/hub/codes', { accountId }), 200));
    expect(code).toMatchObject({ url: info.url, fingerprint: info.fingerprint });
    expect(code.joinLink).toContain(code.code);
  });

  it('closing the server closes the hub’s listener too', async () => {
    const port = Number(new URL(info.url!).port);
    await running.close();
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});

/** The certificate a TLS server presents (what a person reads the fingerprint of). */
async function peerCertificate(url: string): Promise<{ certificate: Buffer }> {
  const tls = await import('node:tls');
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const raw = s.getPeerCertificate().raw;
      s.end();
      const b64 = raw.toString('base64').replace(/(.{64})/g, '$1\n');
      resolve({
        certificate: Buffer.from(`-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`),
      });
    });
    s.on('error', reject);
  });
}
