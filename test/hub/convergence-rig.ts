/**
 * The event the convergence check runs on: a hub (`giftdesk serve --hub`) and stations paired
 * by `giftdesk hub join`, every one its own process on its own SQLite folder, each restartable
 * after kill -9 on the same folder and port (the hub with the same certificate).
 *
 * Besides the ends, the rig holds what the check needs to know about them:
 * - an observer key at the hub (a pairing of its own): with it the rig asks the hub's feed what
 *   comes after a station's cursor; nothing new means the station has read the hub to its end;
 * - each end's id map (its `sync_links`, read from its SQLite file): a record a station typed
 *   has its own id there and the hub's id at the hub; every other record has the hub's id at
 *   every end. So the hub's id is the one name of a record everywhere.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createCampaign, createDonationAccount } from '../../electron/domain/reference/records.ts';
import { createPairingCode } from '../../electron/hub/pairing.ts';
import { cliJson } from '../helpers/cli.ts';
import { type ApiResponse, rawRequest, tempDir } from '../helpers/server.ts';
import { type GiftdeskChild, kill9, pinnedClient, spawnGiftdesk, stopChild, until } from './event-rig.ts';
import fs from 'node:fs';

export const CAMPAIGN = 'Spring Gala';
/** Two donation accounts: one with a per-year limit, one with a per-election limit. */
export const ACCOUNTS = [
  { name: 'Federal', perYear: 3300 },
  { name: 'State PAC', perElection: 500 },
] as const;
/** Custom fields the hub defines before the stations join. */
export const CUSTOM_FIELDS = [{ name: 'Table captain', type: 'text' as const }];

export type Request = (method: string, pathAndQuery: string, body?: unknown) => Promise<ApiResponse>;

export interface End {
  /** `hub`, or the station's name. */
  name: string;
  role: 'hub' | 'station';
  dataDir: string;
  accountId: string;
  /** The station's id at the hub (null for the hub). */
  stationId: string | null;
  /** /api/v1 with this end's own key. */
  request: Request;
  /** Resolves while the end serves; waits while it is down (killed, coming back). */
  up(): Promise<void>;
  isUp(): boolean;
  kill9(): Promise<void>;
  restart(): Promise<void>;
  stderr(): string;
  close(): Promise<void>;
}

export interface EventRig {
  hub: End;
  stations: End[];
  ends: End[];
  /** The hub's id (and the ids of donation accounts and campaigns) by name. */
  campaignId: string;
  donationAccountIds: string[];
  /** Whether the hub's feed has nothing after this station's cursor. */
  feedAtEnd(station: End): Promise<boolean>;
  /** Gifts of the hub's feed a station holds back (their records not here): what is missing, by gift. */
  heldGifts(station: End): Array<{ hubId: string; missing: string }>;
  /** This end's map from its own ids to the hub's (identity for ids it did not type). */
  idMap(end: End): Map<string, string>;
  close(): Promise<void>;
}

const authHeaders = (keyId: string, secret: string) => ({
  'x-api-key': keyId,
  authorization: `Bearer ${secret}`,
});

const keep = () => process.env.GIFTDESK_KEEP_EVENT === '1';

function removeFolder(dir: string): void {
  if (keep()) process.stderr.write(`kept ${dir}\n`);
  else fs.rmSync(dir, { recursive: true, force: true });
}

/** A served process that can die and come back on the same folder and port. */
function restartable(serve: (port: number) => Promise<GiftdeskChild>, first: GiftdeskChild) {
  let proc: GiftdeskChild = first;
  let alive = true;
  let coming: Promise<void> | null = null;
  const port = Number(new URL(String(first.first.url)).port);
  let stderrBefore = '';
  return {
    port,
    get proc() {
      return proc;
    },
    isUp: () => alive,
    up: async () => {
      while (!alive) await (coming ?? new Promise((r) => setTimeout(r, 50)));
    },
    async kill9() {
      if (!alive) return;
      alive = false;
      stderrBefore += proc.stderr();
      await kill9(proc);
    },
    async restart() {
      if (alive) return;
      coming = (async () => {
        proc = await serve(port);
        alive = true;
      })();
      try {
        await coming;
      } finally {
        coming = null;
      }
    },
    stderr: () => stderrBefore + proc.stderr(),
    async stop() {
      alive = false;
      await stopChild(proc);
    },
  };
}

export interface RigOptions {
  stations?: number;
  /** Extra environment for the hub's process (GIFTDESK_LEDGER_SKIP). */
  hubEnv?: Record<string, string>;
}

/** Starts the hub, defines the event's reference data there, pairs and serves the stations. */
export async function startEventRig(env: NodeJS.ProcessEnv, opts: RigOptions = {}): Promise<EventRig> {
  const hubDir = tempDir('giftdesk-converge-hub-');
  const store = await openStore({ dataDir: hubDir });
  const ctx = createContext(store);
  const accountId = (await createAccount(ctx, 'Riverside Food Bank — Spring Gala')).id;
  const { keyId, secret } = await createApiKey(ctx, accountId, 'event coordinator');
  const donationAccountIds: string[] = [];
  for (const a of ACCOUNTS)
    donationAccountIds.push((await createDonationAccount(ctx, { accountId, ...a })).id);
  const campaignId = (
    await createCampaign(ctx, { accountId, name: CAMPAIGN, donationAccountIds: [donationAccountIds[0]!] })
  ).id;
  await store.close();

  const hubEnv = { ...env, ...opts.hubEnv };
  // The test's own key asks a lot (every donor's page at the end): out of the per-key rate's way.
  const serveHub = (port: number) =>
    spawnGiftdesk(
      [
        'serve',
        '--hub',
        '--port',
        String(port),
        '--json',
        '--rate',
        '2000',
        '--burst',
        '4000',
        '--account',
        accountId,
        '--data-dir',
        hubDir,
      ],
      hubEnv,
    );
  const hubProc = restartable(serveHub, await serveHub(0));
  const hubUrl = String(hubProc.proc.first.url);
  const hubInfo = (hubProc.proc.first.hub ?? {}) as { fingerprint?: string };
  if (!hubInfo.fingerprint) throw new Error(`serve --hub printed ${JSON.stringify(hubProc.proc.first)}`);
  const fingerprint = hubInfo.fingerprint;
  const client = pinnedClient(fingerprint);
  const hubAuth = authHeaders(keyId, secret);
  const hub: End = {
    name: 'hub',
    role: 'hub',
    dataDir: hubDir,
    accountId,
    stationId: null,
    request: async (method, p, body) => {
      await hubProc.up();
      // A connection per request: a kept-alive socket the hub closed (or a hub killed since) is never reused.
      return client.request(`${hubUrl}${p}`, method, body, { ...hubAuth, connection: 'close' });
    },
    up: hubProc.up,
    isUp: hubProc.isUp,
    kill9: () => hubProc.kill9(),
    restart: async () => {
      await hubProc.restart();
      if (String(hubProc.proc.first.url) !== hubUrl)
        throw new Error(`the hub came back at ${String(hubProc.proc.first.url)}, not ${hubUrl}`);
    },
    stderr: hubProc.stderr,
    async close() {
      client.close();
      await hubProc.stop();
      removeFolder(hubDir);
    },
  };
  for (const f of CUSTOM_FIELDS) {
    const r = await hub.request('POST', '/api/v1/custom-fields', { accountId, ...f });
    if (r.status !== 201) throw new Error(`custom field ${f.name}: ${r.status} ${r.text}`);
  }

  // A pairing code as `giftdesk hub code` makes one, beside the running hub (one process less each).
  const codes = await openStore({ dataDir: hubDir });
  const code = async () => ({
    code: (await createPairingCode(createContext(codes), accountId)).code,
    url: hubUrl,
    fingerprint,
  });

  // The observer: a pairing of the test's own, to read the hub's feed as a station reads it.
  const observerCode = await code();
  const joined = await client.request(`${hubUrl}/api/v1/hub/join`, 'POST', {
    code: observerCode.code,
    name: 'Observer (test)',
  });
  if (joined.status !== 201) throw new Error(`observer join: ${joined.status} ${joined.text}`);
  const observerAuth = authHeaders(String(joined.body.keyId), String(joined.body.secret));

  const names = ['Table A', 'Table B', 'Table C', 'Table D', 'Table E'].slice(0, opts.stations ?? 3);
  const stations = await Promise.all(names.map((name) => joinStation(env, code, name)));
  await codes.close();

  const idMap = (end: End): Map<string, string> => {
    const m = new Map<string, string>();
    if (end.role === 'hub') return m;
    const db = new Database(path.join(end.dataDir, 'giftdesk.sqlite'), {
      readonly: true,
      fileMustExist: true,
    });
    try {
      const rows = db
        .prepare('SELECT local_id AS localId, remote_id AS remoteId FROM sync_links WHERE account_id = ?')
        .all(end.accountId) as Array<{ localId: string; remoteId: string }>;
      for (const r of rows) m.set(r.localId, r.remoteId);
    } finally {
      db.close();
    }
    return m;
  };

  const cursorOf = (end: End): string | null => {
    const db = new Database(path.join(end.dataDir, 'giftdesk.sqlite'), {
      readonly: true,
      fileMustExist: true,
    });
    try {
      const row = db
        .prepare('SELECT hub_cursor AS c FROM sync_remotes WHERE account_id = ?')
        .get(end.accountId) as { c: string | null } | undefined;
      return row?.c ?? null;
    } finally {
      db.close();
    }
  };

  return {
    hub,
    stations,
    ends: [hub, ...stations],
    campaignId,
    donationAccountIds,
    async feedAtEnd(station) {
      const cursor = cursorOf(station);
      if (cursor === null) return false;
      await hub.up();
      const r = await client.request(
        `${hubUrl}/api/v1/hub/changes?after=${encodeURIComponent(cursor)}`,
        'GET',
        undefined,
        observerAuth,
      );
      if (r.status !== 200) return false;
      return r.body.cursor === cursor && r.body.more === false;
    },
    idMap,
    heldGifts(end) {
      const db = new Database(path.join(end.dataDir, 'giftdesk.sqlite'), {
        readonly: true,
        fileMustExist: true,
      });
      try {
        return db
          .prepare('SELECT hub_id AS hubId, missing FROM hub_held_gifts WHERE account_id = ?')
          .all(end.accountId) as Array<{ hubId: string; missing: string }>;
      } finally {
        db.close();
      }
    },
    async close() {
      await Promise.all(stations.map((s) => s.close()));
      await hub.close();
    },
  };

  async function joinStation(childEnv: NodeJS.ProcessEnv, newCode: typeof code, name: string): Promise<End> {
    const dataDir = tempDir('giftdesk-converge-station-');
    const c = await newCode();
    const out = await cliJson(
      [
        'hub',
        'join',
        c.url,
        '--code',
        c.code,
        '--fingerprint',
        c.fingerprint,
        '--name',
        name,
        '--data-dir',
        dataDir,
      ],
      childEnv,
    );
    const stAccount = String(out.accountId);
    const stationId = String((out.station as { id: string }).id);
    // The table's script key, made in the folder before the station serves.
    const st = await openStore({ dataDir });
    const key = await createApiKey(createContext(st), stAccount, 'table script');
    await st.close();
    const serve = (port: number) =>
      spawnGiftdesk(
        [
          'serve',
          '--port',
          String(port),
          '--json',
          '--rate',
          '2000',
          '--burst',
          '4000',
          '--data-dir',
          dataDir,
        ],
        childEnv,
      );
    const proc = restartable(serve, await serve(0));
    const url = String(proc.proc.first.url);
    const auth = authHeaders(key.keyId, key.secret);
    const end: End = {
      name,
      role: 'station',
      dataDir,
      accountId: stAccount,
      stationId,
      request: async (method, p, body) => {
        await proc.up();
        return rawRequest(`${url}${p}`, method, body, auth);
      },
      up: proc.up,
      isUp: proc.isUp,
      kill9: () => proc.kill9(),
      restart: () => proc.restart(),
      stderr: proc.stderr,
      async close() {
        await proc.stop();
        removeFolder(dataDir);
      },
    };
    await until(`${name}: the hub's donation accounts`, async () => {
      const d = await end.request('GET', `/api/v1/donation-accounts?accountId=${stAccount}`);
      const have = new Set(((d.body?.data ?? d.body ?? []) as Array<{ name: string }>).map((x) => x.name));
      return ACCOUNTS.every((a) => have.has(a.name));
    });
    return end;
  }
}
