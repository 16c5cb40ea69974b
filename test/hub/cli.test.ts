/**
 * The event hub's command line, as scripts and the coordinator run it (child processes of
 * `node bin/giftdesk.mjs` on temp data folders): `serve --hub --json` prints exactly
 * {"url": "https://H:PORT", "hub": {"fingerprint", "pairingCode", …}} once it listens over TLS,
 * with the certificate's files kept 0600 and reused at the next start; beside it, on the same
 * data folder, `hub code`, `hub stations`, `hub revoke` and `hub close` print their one JSON
 * object, and the running hub takes what they did (a code made by another process pairs; a
 * station revoked by another process is refused at once).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJoinLink } from '#shared/hub-address.ts';
import { fingerprintOf } from '../../electron/hub/certificate.ts';
import { expectError, expectStatus } from '../helpers/api-fixtures.ts';
import { cliJson, isolatedEnv, runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/server.ts';
import { httpsRequest } from './hub-rig.ts';

const BIN = path.resolve('bin/giftdesk.mjs');
const FINGERPRINT = /^sha256:([0-9a-f]{2}:){31}[0-9a-f]{2}$/;
const CODE = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

interface HubChild {
  printed: Record<string, unknown>;
  child: ChildProcess;
  exited: Promise<number | string>;
}

/** `giftdesk serve --hub --port 0 --json …`: resolves with the one line it printed once listening. */
function serveHub(args: string[], env: NodeJS.ProcessEnv): Promise<HubChild> {
  const child = spawn(process.execPath, [BIN, 'serve', '--hub', '--port', '0', '--json', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf('\n');
      if (nl >= 0)
        resolve({ printed: JSON.parse(stdout.slice(0, nl)) as Record<string, unknown>, child, exited });
    });
    void exited.then((code) => reject(new Error(`serve --hub exited (${code})\n${stderr.slice(-2000)}`)));
  });
}

async function stop(h: HubChild): Promise<void> {
  h.child.kill('SIGTERM');
  expect(await h.exited).toBe(0);
}

const { env } = isolatedEnv();
const dir = tempDir('giftdesk-hub-cli-');
const cli = (args: string[]) => cliJson([...args, '--data-dir', dir], env);
let accountId: string;
let hub: HubChild;
let url: string;
let cert: Buffer;

beforeAll(async () => {
  accountId = String((await cli(['account', 'create', '--name', 'Gala Org'])).id);
  hub = await serveHub(['--host', '127.0.0.1', '--data-dir', dir], env);
  url = String(hub.printed.url);
  cert = fs.readFileSync(path.join(dir, 'hub-cert.pem'));
});
afterAll(async () => {
  if (hub && hub.child.exitCode === null) await stop(hub);
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = (p: string, body: unknown, key?: { keyId: string; secret: string }) =>
  httpsRequest(
    `${url}${p}`,
    'POST',
    body,
    key ? { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` } : {},
    cert,
  );

describe('giftdesk serve --hub --json', () => {
  it('prints the https address, the fingerprint and a pairing code; the key files are 0600', () => {
    expect(Object.keys(hub.printed).sort()).toEqual(['hub', 'url']);
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const printedHub = hub.printed.hub as Record<string, unknown>;
    expect(printedHub.fingerprint).toMatch(FINGERPRINT);
    expect(printedHub.fingerprint).toBe(fingerprintOf(cert));
    expect(printedHub.pairingCode).toMatch(CODE);
    expect(printedHub.accountId).toBe(accountId);
    expect(parseJoinLink(String(printedHub.joinLink))).toEqual({
      url,
      code: String(printedHub.pairingCode).replace('-', ''),
      fingerprint: printedHub.fingerprint,
    });
    for (const f of ['hub-cert.pem', 'hub-key.pem'])
      expect((fs.statSync(path.join(dir, f)).mode & 0o777).toString(8)).toBe('600');
  });

  it('pairs a station with the printed code; plain HTTP to its port gets no answer', async () => {
    const printedHub = hub.printed.hub as Record<string, string>;
    const joined = expectStatus(
      await post('/api/v1/hub/join', { code: printedHub.pairingCode, name: 'Table A' }),
      201,
    );
    expect(joined.fingerprint).toBe(printedHub.fingerprint);
    // The station confirms it kept its key, as a station does (until then it is not listed).
    expectStatus(await post('/api/v1/hub/join/confirm', { stationId: joined.station.id }, joined), 200);
    await expect(fetch(url.replace('https:', 'http:') + '/api/v1/hub/changes')).rejects.toThrow();
  });
});

describe('giftdesk hub … beside the running hub', () => {
  let station: { keyId: string; secret: string; station: { id: string; name: string } };

  it('hub code --json: a fresh code the running hub accepts', async () => {
    const code = await cli(['hub', 'code']);
    expect(code).toMatchObject({ url, fingerprint: (hub.printed.hub as Record<string, string>).fingerprint });
    expect(code.code).toMatch(CODE);
    expect(Date.parse(String(code.expiresAt)) - Date.now()).toBeGreaterThan(8 * 60 * 1000);
    station = expectStatus(await post('/api/v1/hub/join', { code: code.code, name: 'Table B' }), 201);
    expect(station.station.name).toBe('Table B');
    expectStatus(await post('/api/v1/hub/join/confirm', { stationId: station.station.id }, station), 200);
  });

  it('hub stations --json: every station with its last contact, gifts received, what waits', async () => {
    const out = await cli(['hub', 'stations']);
    const stations = out.stations as Array<Record<string, unknown>>;
    expect(stations.map((s) => s.name)).toEqual(['Table A', 'Table B']);
    for (const s of stations) {
      expect(s).toMatchObject({ received: 0, waiting: null });
      expect(s.id).toMatch(/^stn_/);
      expect(s.lastSeenAt).toBeTypeOf('string');
    }
  });

  it('hub close --json: the station’s gifts by method, the event’s totals', async () => {
    const campaign = await cli(['campaign', 'create', '--account', accountId, '--name', 'Gala']);
    const donor = expectStatus(
      await post('/api/v1/contacts', { accountId, firstName: 'Maria', lastName: 'Lopez' }, station),
      201,
    );
    expectStatus(
      await post(
        '/api/v1/donations',
        {
          accountId,
          contactId: donor.id,
          campaignId: campaign.id,
          donationAmount: 20,
          donationDate: '2026-11-27',
          paymentMethod: 'cash',
        },
        station,
      ),
      201,
    );
    const out = await cli(['hub', 'close', '--account', accountId]);
    expect(out).toMatchObject({ gifts: 1, total: 20, byMethod: { cash: { gifts: 1, total: 20 } } });
    const rows = out.stations as Array<Record<string, unknown>>;
    expect(rows.find((r) => r.id === station.station.id)).toMatchObject({
      name: 'Table B',
      gifts: 1,
      total: 20,
      byMethod: { cash: { gifts: 1, total: 20 } },
      complete: false,
    });
    expect(rows.every((r) => typeof r.complete === 'boolean')).toBe(true);
  });

  it('hub revoke --json: the running hub refuses the station at once', async () => {
    const out = await cli(['hub', 'revoke', station.station.id]);
    expect(out).toMatchObject({ id: station.station.id, revoked: true });
    const res = await post(
      '/api/v1/contacts',
      { accountId, firstName: 'After', lastName: 'Revoke' },
      station,
    );
    expectError(res, 401, { code: 'station_revoked' });
  });

  it('hub code --only --json: the older codes not used yet stop working, the new one pairs', async () => {
    const first = await cli(['hub', 'code']);
    const second = await cli(['hub', 'code']);
    const only = await cli(['hub', 'code', '--only']);
    expect(only).toMatchObject({ retired: 2 });
    for (const old of [first.code, second.code])
      expectError(await post('/api/v1/hub/join', { code: old, name: 'Table C' }), 403, {
        code: 'pairing_code_wrong',
      });
    expectStatus(await post('/api/v1/hub/join', { code: only.code, name: 'Table C' }), 201);
    const text = await runCli(['hub', 'code', '--only', '--data-dir', dir], env);
    expect(text.stdout).toContain('Older codes not used yet: none (they no longer work)');
  });

  it('errors go to stderr with a non-zero exit: an unknown station, a folder hosting nothing', async () => {
    const r = await runCli(['hub', 'revoke', 'stn_nope', '--data-dir', dir, '--json'], env);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.code).toBe('station_not_found');
    const other = tempDir('giftdesk-hub-none-');
    await cliJson(['account', 'create', '--name', 'Quiet', '--data-dir', other], env);
    const none = await runCli(['hub', 'code', '--data-dir', other, '--json'], env);
    expect(none.status).not.toBe(0);
    expect(JSON.parse(none.stderr).error.code).toBe('hub_not_hosted');
    fs.rmSync(other, { recursive: true, force: true });
  });
});

describe('serve --hub, started again and refused', () => {
  it('keeps its certificate across a restart (the fingerprint stations pinned)', async () => {
    const before = (hub.printed.hub as Record<string, string>).fingerprint;
    await stop(hub);
    hub = await serveHub(['--host', '127.0.0.1', '--data-dir', dir], env);
    const printedHub = hub.printed.hub as Record<string, string>;
    expect(printedHub.fingerprint).toBe(before);
    expect(printedHub.pairingCode).toMatch(CODE);
  });

  it('refuses to guess the account when the folder has several: a usage error naming --account', async () => {
    const two = tempDir('giftdesk-hub-two-');
    await cliJson(['account', 'create', '--name', 'One', '--data-dir', two], env);
    await cliJson(['account', 'create', '--name', 'Two', '--data-dir', two], env);
    const r = await runCli(['serve', '--hub', '--port', '0', '--data-dir', two, '--json'], env);
    expect(r.status).toBe(64);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.message).toContain('--account');
    fs.rmSync(two, { recursive: true, force: true });
  });
});
