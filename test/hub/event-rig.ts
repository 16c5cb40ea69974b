/**
 * An event on loopback, every part its own process with its own data folder, driven through
 * the `giftdesk` command line as the person setting up the event drives it:
 *
 * - HQ: `giftdesk serve` (plain HTTP on 127.0.0.1), an account, a key, a campaign and a
 *   donation account with a per-year limit;
 * - the hub: `giftdesk serve --hub --json`, an account with the same campaign and donation
 *   account (linked to HQ's by `giftdesk sync pull`), pushing to HQ through whatever address it
 *   is given (the tests give a fault proxy's); restartable on the same port after kill -9;
 * - stations: `giftdesk hub join URL --code … --fingerprint … --name …` with a code from
 *   `giftdesk hub code` beside the running hub, then `giftdesk serve` on their own folder.
 *
 * The test and the bench talk to HQ and the stations over HTTP, and to the hub over HTTPS
 * pinned to the fingerprint it printed (its certificate is its own).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createCampaign, createDonationAccount } from '../../electron/domain/reference/records.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { keyFileSource } from '../../electron/sync/remote/secret-box.ts';
import { cliJson } from '../helpers/cli.ts';
import { type ApiResponse, rawRequest, tempDir } from '../helpers/server.ts';

const BIN = path.resolve('bin/giftdesk.mjs');

export const CAMPAIGN = 'Spring Gala';
export const DONATION_ACCOUNT = 'Federal';
/** The donation account's per-year limit, dollars. */
export const LIMIT_PER_YEAR = 3300;

export type Request = (method: string, pathAndQuery: string, body?: unknown) => Promise<ApiResponse>;

/** A `giftdesk` child process that printed one JSON line on stdout once it was ready. */
export interface GiftdeskChild {
  child: ChildProcess;
  /** The first line it printed on stdout, parsed. */
  first: Record<string, unknown>;
  stderr(): string;
  /** The exit code, or the signal's name. */
  exited: Promise<number | string>;
}

/**
 * Spawns `node [nodeArgs] bin/giftdesk.mjs args` and resolves with its first stdout line
 * (a `--json` serve prints one object once it listens).
 */
export function spawnGiftdesk(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<GiftdeskChild> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 400_000) stderr = stderr.slice(-200_000);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf('\n');
      if (nl < 0) return;
      try {
        const first = JSON.parse(stdout.slice(0, nl)) as Record<string, unknown>;
        resolve({ child, first, stderr: () => stderr, exited });
      } catch (err) {
        reject(new Error(`giftdesk ${args[0]} printed something other than JSON: ${stdout}\n${String(err)}`));
      }
    });
    void exited.then((code) =>
      reject(
        new Error(`giftdesk ${args.join(' ')} exited (${code}) before it was ready\n${stderr.slice(-3000)}`),
      ),
    );
  });
}

/** SIGTERM (requests in flight finish), then waits for the exit; SIGKILL after `graceMs`. */
export async function stopChild(c: GiftdeskChild | null | undefined, graceMs = 10_000): Promise<void> {
  if (!c || c.child.exitCode !== null || c.child.signalCode !== null) return;
  c.child.kill('SIGTERM');
  const t = setTimeout(() => c.child.kill('SIGKILL'), graceMs);
  await c.exited;
  clearTimeout(t);
}

/** Removes a data folder once its process is gone (GIFTDESK_KEEP_EVENT=1 keeps them, to look into a failure). */
function removeFolder(dataDir: string): void {
  if (process.env.GIFTDESK_KEEP_EVENT === '1') process.stderr.write(`kept ${dataDir}\n`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

/** kill -9, and waits until the process is gone. */
export async function kill9(c: GiftdeskChild): Promise<void> {
  c.child.kill('SIGKILL');
  await c.exited;
}

/** Waits until `check` returns a value that is not undefined/false; polls every `everyMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
  let last: unknown = undefined;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `gave up waiting for ${what} (last: ${last instanceof Error ? last.message : String(last)})`,
      );
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 200));
  }
}

/** `sha256:ab:cd:…` in any case, with or without colons, as 64 lowercase hex digits. */
export function fingerprintHex(fp: string): string {
  return fp
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, '')
    .replace(/:/g, '');
}

/**
 * Requests to an HTTPS server whose certificate is its own (self-signed): accepted only when
 * the certificate's SHA-256 is `fingerprint`. Bodies as JSON, answers parsed as JSON.
 */
export function pinnedClient(fingerprint: string): {
  request: (
    url: string,
    method: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<ApiResponse>;
  close(): void;
} {
  // No resumed TLS sessions: a resumed session shows no certificate to compare.
  const agent = new https.Agent({
    keepAlive: true,
    rejectUnauthorized: false,
    maxSockets: 8,
    maxCachedSessions: 0,
  });
  const want = fingerprintHex(fingerprint);
  const request = (url: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<ApiResponse>((resolve, reject) => {
      const u = new URL(url);
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        {
          hostname: u.hostname,
          port: u.port,
          path: `${u.pathname}${u.search}`,
          method,
          agent,
          headers: {
            ...headers,
            ...(data !== undefined
              ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) }
              : {}),
          },
        },
        (res) => {
          const cert = (res.socket as TLSSocket).getPeerCertificate();
          if (fingerprintHex(cert.fingerprint256 ?? '') !== want) {
            res.destroy();
            reject(new Error(`the hub's certificate is not the one it printed (${cert.fingerprint256})`));
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = undefined;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = undefined;
            }
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
            resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  return { request, close: () => agent.destroy() };
}

const authHeaders = (keyId: string, secret: string) => ({
  'x-api-key': keyId,
  authorization: `Bearer ${secret}`,
});

/* ---------------------------------------------------------------- HQ */

export interface HqSide {
  dataDir: string;
  url: string;
  /** `serve --spec-only`: the donor API alone (no create-once, no lists of campaigns and the like). */
  specOnly: boolean;
  /** HQ's campaign and donation account (a spec-only HQ lists neither: they are linked by hand). */
  campaignId: string;
  donationAccountId: string;
  accountId: string;
  keyId: string;
  secret: string;
  proc: GiftdeskChild;
  request: Request;
  close(): Promise<void>;
}

/**
 * HQ: a data folder with an account, a key, the campaign and the donation account; `giftdesk
 * serve` on it — with `specOnly`, `serve --spec-only`, the donor API alone like the hosted service.
 */
export async function startHq(env: NodeJS.ProcessEnv, opts: { specOnly?: boolean } = {}): Promise<HqSide> {
  const dataDir = tempDir('giftdesk-event-hq-');
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  const accountId = (await createAccount(ctx, 'Riverside Food Bank (HQ)')).id;
  const { keyId, secret } = await createApiKey(ctx, accountId, 'event hub');
  const da = await createDonationAccount(ctx, { accountId, name: DONATION_ACCOUNT, perYear: LIMIT_PER_YEAR });
  const campaign = await createCampaign(ctx, { accountId, name: CAMPAIGN, donationAccountIds: [da.id] });
  await store.close();
  const specOnly = opts.specOnly === true;
  // HQ's per-key rate is out of the way: the hub's own pacing is what the test exercises.
  const proc = await spawnGiftdesk(
    [
      'serve',
      '--port',
      '0',
      '--json',
      '--no-sync',
      '--rate',
      '1000',
      '--burst',
      '2000',
      '--data-dir',
      dataDir,
      ...(specOnly ? ['--spec-only'] : []),
    ],
    env,
  );
  const url = String(proc.first.url);
  const auth = authHeaders(keyId, secret);
  return {
    dataDir,
    url,
    specOnly,
    campaignId: campaign.id,
    donationAccountId: da.id,
    accountId,
    keyId,
    secret,
    proc,
    request: (method, p, body) => rawRequest(`${url}${p}`, method, body, auth),
    async close() {
      await stopChild(proc);
      removeFolder(dataDir);
    },
  };
}

/* ---------------------------------------------------------------- hub */

export interface HubOptions {
  /** Where the hub pushes to (HQ, or a proxy in front of it); no sync settings when left out. */
  upstream?: { url: string; hq: HqSide };
  /** Donors in the hub's directory before any station joins (the bench's lookups find them). */
  donors?: number;
  /** Extra node arguments for the hub's process (the bench's event-loop probe). */
  nodeArgs?: string[];
  /** Extra environment for the hub's process. */
  env?: Record<string, string>;
}

export interface HubSide {
  dataDir: string;
  /** `https://127.0.0.1:PORT`, as `serve --hub` printed it. */
  url: string;
  port: number;
  fingerprint: string;
  /** The code `serve --hub` printed at its (first) start. */
  firstCode: string;
  accountId: string;
  keyId: string;
  secret: string;
  proc: GiftdeskChild;
  /** The hub's /api/v1 with its own key, over HTTPS pinned to its fingerprint. */
  request: Request;
  /** A fresh one-time code: `giftdesk hub code` beside the running hub. */
  code(): Promise<{ code: string; url: string; fingerprint: string; expiresAt: string }>;
  /** `giftdesk hub close --json`. */
  closeOut(): Promise<Record<string, unknown>>;
  /** `giftdesk hub stations --json`. */
  stations(): Promise<Record<string, unknown>>;
  kill9(): Promise<void>;
  /** `serve --hub` again on the same data folder and port (after kill9 or stop). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The names of the directory's donors (`donors` of HubOptions), first and last, taken in turn. */
export const DIRECTORY_FIRST = [
  'Maria',
  'James',
  'Aiko',
  'Fatima',
  'Olu',
  'Grace',
  'Tomasz',
  'Priya',
  'Diego',
  'Hannah',
];
export const DIRECTORY_LAST = [
  'Okafor',
  'Lindqvist',
  'Tanaka',
  'Haddad',
  'Silva',
  'Novak',
  'Reyes',
  'Kowalski',
];

async function prepareHubFolder(
  env: NodeJS.ProcessEnv,
  opts: HubOptions,
): Promise<{ dataDir: string; accountId: string; keyId: string; secret: string }> {
  const dataDir = tempDir('giftdesk-event-hub-');
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  const accountId = (await createAccount(ctx, 'Riverside Food Bank — Spring Gala')).id;
  const { keyId, secret } = await createApiKey(ctx, accountId, 'event coordinator');
  const da = await createDonationAccount(ctx, { accountId, name: DONATION_ACCOUNT, perYear: LIMIT_PER_YEAR });
  const campaign = await createCampaign(ctx, { accountId, name: CAMPAIGN, donationAccountIds: [da.id] });
  for (let i = 0; i < (opts.donors ?? 0); i++)
    await createContact(ctx, {
      accountId,
      firstName: DIRECTORY_FIRST[i % DIRECTORY_FIRST.length]!,
      lastName: `${DIRECTORY_LAST[i % DIRECTORY_LAST.length]!}${i >= DIRECTORY_LAST.length ? ` ${i}` : ''}`,
      primaryEmail: `donor${i}@directory.example`,
    });
  if (opts.upstream)
    await saveRemoteSettings(
      store,
      keyFileSource(dataDir),
      {
        accountId,
        baseUrl: opts.upstream.url,
        keyId: opts.upstream.hq.keyId,
        secret: opts.upstream.hq.secret,
        remoteAccountId: opts.upstream.hq.accountId,
        ratePerSecond: 20,
        scheduleSeconds: 5,
      },
      ctx.now(),
    );
  await store.close();
  // HQ's campaign and donation account linked to the hub's of the same name (HQ reachable now).
  if (opts.upstream) await cliJson(['sync', 'pull', '--data-dir', dataDir, '--account', accountId], env);
  // A spec-only HQ lists neither: linked by hand, as its coordinator would.
  if (opts.upstream?.hq.specOnly)
    await linkByHand(env, dataDir, accountId, opts.upstream.hq, {
      campaignId: campaign.id,
      donationAccountId: da.id,
    });
  return { dataDir, accountId, keyId, secret };
}

/**
 * `giftdesk sync link` of a data folder's campaign and donation account to HQ's (docs/hq.md:
 * an HQ that does not list them), with GiftDesk stopped on that folder.
 */
export async function linkByHand(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  accountId: string,
  hq: HqSide,
  local: { campaignId: string; donationAccountId: string },
): Promise<void> {
  const link = (flag: string, localId: string, remote: string) =>
    cliJson(
      ['sync', 'link', flag, localId, '--remote', remote, '--account', accountId, '--data-dir', dataDir],
      env,
    );
  await link('--campaign', local.campaignId, hq.campaignId);
  await link('--donation-account', local.donationAccountId, hq.donationAccountId);
}

/** The hub: its data folder prepared, then `giftdesk serve --hub --json` on it. */
export async function startHub(env: NodeJS.ProcessEnv, opts: HubOptions = {}): Promise<HubSide> {
  const folder = await prepareHubFolder(env, opts);
  const { dataDir, accountId, keyId, secret } = folder;
  const childEnv = { ...env, ...opts.env };
  const serve = (port: number) =>
    spawnGiftdesk(
      ['serve', '--hub', '--port', String(port), '--json', '--account', accountId, '--data-dir', dataDir],
      childEnv,
      opts.nodeArgs,
    );
  let proc = await serve(0);
  const url = String(proc.first.url);
  const hubInfo = (proc.first.hub ?? {}) as { fingerprint?: string; pairingCode?: string };
  if (!url.startsWith('https://') || !hubInfo.fingerprint || !hubInfo.pairingCode)
    throw new Error(`serve --hub printed ${JSON.stringify(proc.first)}`);
  const port = Number(new URL(url).port);
  const client = pinnedClient(hubInfo.fingerprint);
  const auth = authHeaders(keyId, secret);
  const hub: HubSide = {
    dataDir,
    url,
    port,
    fingerprint: hubInfo.fingerprint,
    firstCode: hubInfo.pairingCode,
    accountId,
    keyId,
    secret,
    get proc() {
      return proc;
    },
    request: (method, p, body) => client.request(`${url}${p}`, method, body, auth),
    code: async () =>
      (await cliJson(['hub', 'code', '--account', accountId, '--data-dir', dataDir], env)) as {
        code: string;
        url: string;
        fingerprint: string;
        expiresAt: string;
      },
    closeOut: () => cliJson(['hub', 'close', '--account', accountId, '--data-dir', dataDir], env),
    stations: () => cliJson(['hub', 'stations', '--data-dir', dataDir], env),
    kill9: () => kill9(proc),
    async restart() {
      proc = await serve(port);
      if (String(proc.first.url) !== url)
        throw new Error(`the hub came back at ${String(proc.first.url)}, not ${url}`);
    },
    async close() {
      client.close();
      await stopChild(proc);
      removeFolder(dataDir);
    },
  };
  return hub;
}

/* ---------------------------------------------------------------- stations */

export interface StationOptions {
  /** Also serve the app (`--ui`): `appUrl` is its one-time link. */
  ui?: boolean;
  /** The station's per-key script rate (the test's pollers ask often). */
  rate?: number;
}

export interface StationSide {
  name: string;
  dataDir: string;
  url: string;
  appUrl: string | null;
  accountId: string;
  stationId: string;
  keyId: string;
  secret: string;
  proc: GiftdeskChild;
  /** The station's /api/v1 with a key of its own (a script at the table). */
  request: Request;
  /** Another key of the station's: the test's and the bench's watchers, apart from the volunteer's budget. */
  watch: Request;
  /** The station's campaign and donation account (the hub's, arrived by the feed). */
  campaignId: string;
  donationAccountId: string;
  close(): Promise<void>;
}

/** Pairs a fresh data folder with the hub (`hub code` then `hub join`), serves it, waits for the hub's reference data. */
export async function joinStation(
  env: NodeJS.ProcessEnv,
  hub: HubSide,
  name: string,
  opts: StationOptions = {},
): Promise<StationSide> {
  const dataDir = tempDir('giftdesk-event-station-');
  const code = await hub.code();
  const joined = await cliJson(
    [
      'hub',
      'join',
      code.url,
      '--code',
      code.code,
      '--fingerprint',
      code.fingerprint,
      '--name',
      name,
      '--data-dir',
      dataDir,
    ],
    env,
  );
  const accountId = String(joined.accountId);
  const station = joined.station as { id: string; name: string };
  if (!accountId || !station?.id) throw new Error(`hub join printed ${JSON.stringify(joined)}`);
  const key = await cliJson(
    ['key', 'create', '--account', accountId, '--label', 'table script', '--data-dir', dataDir],
    env,
  );
  const watchKey = await cliJson(
    ['key', 'create', '--account', accountId, '--label', 'watcher', '--data-dir', dataDir],
    env,
  );
  const rate = opts.rate ?? 20;
  const proc = await spawnGiftdesk(
    [
      'serve',
      '--port',
      '0',
      '--json',
      '--rate',
      String(rate),
      '--burst',
      String(rate * 2),
      '--data-dir',
      dataDir,
      ...(opts.ui ? ['--ui'] : []),
    ],
    env,
  );
  const url = String(proc.first.url);
  const keyId = String(key.keyId);
  const secret = String(key.secret);
  const request: Request = (method, p, body) =>
    rawRequest(`${url}${p}`, method, body, authHeaders(keyId, secret));
  const watch: Request = (method, p, body) =>
    rawRequest(`${url}${p}`, method, body, authHeaders(String(watchKey.keyId), String(watchKey.secret)));
  // Pairing alone is enough to enter gifts: the hub's campaign and donation account arrive.
  const [campaignId, donationAccountId] = await until(
    `${name}: the hub's campaign and donation account`,
    async () => {
      const c = await watch('GET', `/api/v1/campaigns?accountId=${accountId}`);
      const d = await watch('GET', `/api/v1/donation-accounts?accountId=${accountId}`);
      const cid = listOf(c.body).find((x) => x.name === CAMPAIGN)?.id;
      const did = listOf(d.body).find((x) => x.name === DONATION_ACCOUNT)?.id;
      return cid && did ? ([cid, did] as const) : undefined;
    },
  );
  return {
    name,
    dataDir,
    url,
    appUrl: typeof proc.first.appUrl === 'string' ? proc.first.appUrl : null,
    accountId,
    stationId: station.id,
    keyId,
    secret,
    proc,
    request,
    watch,
    campaignId,
    donationAccountId,
    async close() {
      await stopChild(proc);
      removeFolder(dataDir);
    },
  };
}

/** The items of a list answer (`{data: […]}` or a bare array). */
export function listOf(body: unknown): Array<{ id: string; name?: string } & Record<string, unknown>> {
  const data = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as Array<{ id: string; name?: string } & Record<string, unknown>>) : [];
}

/** Whether a station's donor box (`/contact-summaries`, as the app asks) finds this name with this email. */
export async function foundBy(
  station: StationSide,
  search: string,
  email?: string,
): Promise<string | undefined> {
  const r = await station.watch(
    'GET',
    `/api/v1/contact-summaries?accountId=${station.accountId}&search=${encodeURIComponent(search)}&limit=8`,
  );
  if (r.status !== 200) return undefined;
  const hit = listOf(r.body).find((c) => (email ? c.email === email : true));
  return hit?.id;
}
