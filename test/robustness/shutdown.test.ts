/**
 * Graceful shutdown and the default bind: `giftdesk serve` listens on 127.0.0.1 unless told
 * otherwise and refuses a request addressed to another host name; on SIGTERM, gifts whose
 * requests are in flight are finished (201) and are in the database after a restart, and the
 * process exits 0.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { dollarsToCents } from '#shared/money.ts';
import { cliJson, isolatedEnv, type ServeChild, startServe } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';

const dataDir = tempDir('giftdesk-shutdown-');
const { env, home } = isolatedEnv();
const servers: ServeChild[] = [];
afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

async function serve(): Promise<ServeChild> {
  const s = await startServe(['--data-dir', dataDir, '--log-level', 'info'], env);
  servers.push(s);
  return s;
}

interface Answer {
  status: number;
  body: string;
}

/** A POST whose headers and first half of the body are sent now, the rest on `finish()`. */
function halfSentPost(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const text = Buffer.from(JSON.stringify(body));
  const req = http.request(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(text.length) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let b = '';
      res.on('data', (d: Buffer) => (b += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(text.length / 2);
  req.write(text.subarray(0, half));
  return { answer, finish: () => req.end(text.subarray(half)) };
}

/** A GET with a Host header of our choosing (fetch will not send a foreign Host). */
function getWithHost(
  url: string,
  path: string,
  host: string,
  headers: Record<string, string>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      { method: 'GET', agent: false, headers: { ...headers, host } },
      (res) => {
        let b = '';
        res.on('data', (d: Buffer) => (b += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** This machine's IPv4 addresses other than loopback (none on some CI runners). */
function externalAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((a): a is os.NetworkInterfaceInfo => a !== undefined && !a.internal && a.family === 'IPv4')
    .map((a) => a.address);
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('giftdesk serve', () => {
  it('binds 127.0.0.1 by default and refuses a request whose Host is not a loopback name', async () => {
    const { id: accountId } = (await cliJson(
      ['account', 'create', '--name', 'Bind Org', '--data-dir', dataDir],
      env,
    )) as { id: string };
    const { keyId, secret } = (await cliJson(
      ['key', 'create', '--account', accountId, '--data-dir', dataDir],
      env,
    )) as { keyId: string; secret: string };
    const auth = { 'x-api-key': keyId, authorization: `Bearer ${secret}` };
    const server = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(server.url).port);

    const ok = await getWithHost(
      server.url,
      `/api/v1/account?accountId=${accountId}`,
      `localhost:${port}`,
      auth,
    );
    expect(ok.status).toBe(200);
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost:${port}@evil.example`,
    ]) {
      const refused = await getWithHost(server.url, `/api/v1/account?accountId=${accountId}`, host, auth);
      expect(refused.status, host).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 403, code: 'host_not_allowed' });
    }

    // Not reachable from the network: every non-loopback address of this machine refuses.
    for (const address of externalAddresses()) expect(await canConnect(address, port), address).toBe(false);
    expect(await canConnect('127.0.0.1', port)).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('opens to the network only when --host says so, and then accepts any Host', async () => {
    const { id: accountId } = (await cliJson(
      ['account', 'create', '--name', 'Wide Org', '--data-dir', dataDir],
      env,
    )) as { id: string };
    const { keyId, secret } = (await cliJson(
      ['key', 'create', '--account', accountId, '--data-dir', dataDir],
      env,
    )) as { keyId: string; secret: string };
    const server = await startServe(['--data-dir', dataDir, '--host', '0.0.0.0'], env);
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // a URL this machine can open
    const port = Number(new URL(server.url).port);
    const wide = await getWithHost(
      server.url,
      `/api/v1/account?accountId=${accountId}`,
      `giftdesk.example:${port}`,
      { 'x-api-key': keyId, authorization: `Bearer ${secret}` },
    );
    expect(wide.status).toBe(200);
    const noKey = await getWithHost(
      server.url,
      `/api/v1/account?accountId=${accountId}`,
      `giftdesk.example:${port}`,
      {},
    );
    expect(noKey.status).toBe(401); // wider, but never without a key
    for (const address of externalAddresses()) expect(await canConnect(address, port), address).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('on SIGTERM finishes the gifts in flight, saves them, and exits 0', async () => {
    const { id: accountId } = (await cliJson(
      ['account', 'create', '--name', 'Shutdown Org', '--data-dir', dataDir],
      env,
    )) as { id: string };
    const { keyId, secret } = (await cliJson(
      ['key', 'create', '--account', accountId, '--data-dir', dataDir],
      env,
    )) as { keyId: string; secret: string };
    const auth = { 'x-api-key': keyId, authorization: `Bearer ${secret}` };
    let server = await serve();
    const api = (method: string, path: string, body?: unknown) =>
      rawRequest(`${server.url}/api/v1${path}`, method, body, auth);
    const contact = await api('POST', '/contacts', { accountId, firstName: 'Ada', lastName: 'Lovelace' });
    const campaign = await api('POST', '/campaigns', { accountId, name: 'Gala' });
    expect(contact.status).toBe(201);
    const logged = server
      .stderr()
      .split('\n')
      .filter((l) => l.includes('incoming request')).length;

    const N = 8;
    const gifts = Array.from({ length: N }, (_, i) => ({ cents: 2500 + i * 101, notes: `in-flight ${i}` }));
    const posts = gifts.map((g) =>
      halfSentPost(
        server.url,
        '/api/v1/donations',
        {
          accountId,
          contactId: contact.body.id,
          campaignId: campaign.body.id,
          donationAmount: g.cents / 100,
          donationDate: '2026-11-21',
          paymentMethod: 'cash',
          notes: g.notes,
        },
        auth,
      ),
    );
    await server.waitForLog(/incoming request/, logged + N); // all N are in the server, bodies half read
    server.child.kill('SIGTERM');
    await server.waitForLog(/shutting down/);
    for (const p of posts) p.finish();
    const answers = await Promise.all(posts.map((p) => p.answer));
    for (const a of answers) expect(a.status, a.body).toBe(201);
    expect(await server.exited).toBe(0);

    server = await serve();
    for (const [i, a] of answers.entries()) {
      const { id } = JSON.parse(a.body) as { id: string };
      const d = await api('GET', `/donations/${id}?accountId=${accountId}`);
      expect(d.status).toBe(200);
      expect(dollarsToCents(d.body.donationAmount)).toBe(gifts[i]!.cents);
      expect(d.body.notes).toBe(gifts[i]!.notes);
    }
    const c = await api('GET', `/contacts/${contact.body.id}?accountId=${accountId}`);
    expect(dollarsToCents(c.body.totalDonations)).toBe(gifts.reduce((s, g) => s + g.cents, 0));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
