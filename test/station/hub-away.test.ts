/**
 * A station that loses its hub keeps entering gifts, says "Event hub not reachable · N
 * waiting", and catches up by itself when the hub is back (the same hub: its data folder, its
 * certificate, its port), with nothing sent twice.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { ensureHubCertificate } from '../../electron/hub/certificate.ts';
import { startServer, type RunningServer } from '../../electron/server/serve.ts';
import { joinHub } from '../../electron/sync/station/join.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { connectionWords } from '../../renderer/screens/settings/sync-keys.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';
import { type Hub, httpsRequest, startHub } from '../hub/hub-rig.ts';

let hub: Hub;
let again: RunningServer | null = null;
let station: RunningServer;
let request: (method: string, p: string, body?: unknown) => ReturnType<typeof rawRequest>;
let campaignId: string;
let donorId: string;

/** The hub's gifts, read with its host key over its certificate (whichever server serves it now). */
async function hubGiftNotes(): Promise<string[]> {
  const r = await httpsRequest(
    `${hub.url}/api/v1/donations?accountId=${hub.accountId}&limit=100`,
    'GET',
    undefined,
    { 'x-api-key': hub.keyId, authorization: `Bearer ${hub.secret}` },
    hub.cert,
  );
  return (expectStatus(r, 200).donations as Array<{ notes: string | null }>).map((d) => d.notes ?? '');
}

beforeAll(async () => {
  hub = await startHub();
  campaignId = (await makeCampaign(hub, 'Gala 2026')).id;
  donorId = (await makeContact(hub, { firstName: 'Maria', lastName: 'Lopez' })).id;
  const dir = tempDir('giftdesk-station-');
  const store = await openStore({ dataDir: dir });
  const ctx = createContext(store);
  const keys = keyFileSource(dir);
  const joined = await joinHub(ctx, keys, {
    url: hub.url,
    code: await hub.code(),
    fingerprint: hub.fingerprint,
    name: 'Table A',
  });
  expect(joined.caughtUp).toBe(true);
  const key = await createApiKey(ctx, hub.accountId, 'tests');
  station = await startServer({
    store,
    port: 0,
    rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    sync: { keys, run: true },
  });
  const auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
  request = (method, p, body) => rawRequest(`${station.url}${p}`, method, body, auth);
});
afterAll(async () => {
  await station?.close();
  await again?.close();
  await hub?.close();
});

async function status() {
  return expectStatus(await request('GET', `/api/v1/sync/status?accountId=${hub.accountId}`), 200);
}

function gift(amount: number) {
  return request('POST', '/api/v1/donations', {
    accountId: hub.accountId,
    contactId: donorId,
    donationAmount: amount,
    donationDate: '2026-11-27',
    paymentMethod: 'cash',
    campaignId,
  });
}

describe('a station without its hub', () => {
  it('keeps entering, says the hub is not reachable, and catches up when it is back', async () => {
    const first = expectStatus(await gift(10), 201);
    await expect
      .poll(async () => (await hubGiftNotes()).some((n) => n.endsWith(`gd:${first.id}`)))
      .toBe(true);

    const port = Number(new URL(hub.url).port);
    await hub.running.close();
    const away = [expectStatus(await gift(20), 201), expectStatus(await gift(30), 201)];
    await expect
      .poll(async () => {
        const s = await status();
        return `${connectionWords(s.connection, s.pausedUntil, s).text} · ${s.waiting} waiting`;
      })
      .toBe('Event hub not reachable · 2 waiting');

    // The same hub again: its data folder, its certificate, its port.
    const store = await openStore({ dataDir: hub.dataDir });
    const cert = await ensureHubCertificate(hub.dataDir, ['127.0.0.1']);
    expect(cert.fingerprint).toBe(hub.fingerprint);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    expect(free).toBe(true);
    again = await startServer({
      store,
      port,
      host: '127.0.0.1',
      rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
      https: { cert: cert.cert, key: cert.key },
      hub: { dataDir: hub.dataDir, account: { id: hub.accountId, fingerprint: cert.fingerprint } },
    });
    await expect.poll(async () => (await status()).waiting).toBe(0);
    const notes = await hubGiftNotes();
    for (const g of [first, ...away]) expect(notes.filter((n) => n.endsWith(`gd:${g.id}`))).toHaveLength(1);
    await expect
      .poll(async () => {
        const s = await status();
        return connectionWords(s.connection, s.pausedUntil, s).text;
      })
      .toBe('Event hub connected');
  });
});
