/**
 * kill -9 of `giftdesk hub join` half-way through its catch-up, each end its own process over
 * TLS on 127.0.0.1: the join is killed once the station holds some of the hub's donors and not
 * all; `giftdesk serve` on the same folder reads on from the cursor the last page moved and
 * ends with every donor and gift of the hub once, each donor's lifetime total the hub's (the
 * totals a killed join left pending are moved when the folder is opened). The hub's directory
 * holds three pages of donors; its gifts include one donor's two identical $19.99 cash gifts.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.ts';
import { tempDir } from '../helpers/server.ts';
import {
  type GiftdeskChild,
  type HubSide,
  listOf,
  spawnGiftdesk,
  startHub,
  stopChild,
  until,
} from '../hub/event-rig.ts';

const DONORS = 5000;
const BIN = path.resolve('bin/giftdesk.mjs');
const { env } = isolatedEnv();
let hub: HubSide | null = null;
let station: GiftdeskChild | null = null;

afterAll(async () => {
  await stopChild(station);
  await hub?.close();
});

/** Donor ids and totals, gift ids, of the account in a data folder (read-only, beside a server). */
function contents(dataDir: string, accountId: string) {
  const db = new BetterSqlite3(path.join(dataDir, 'giftdesk.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const donors = db
      .prepare('select id, total_cents as cents from contacts where account_id = ? order by id')
      .all(accountId) as Array<{ id: string; cents: number }>;
    const gifts = db
      .prepare('select id from donations where account_id = ? order by id')
      .all(accountId) as Array<{ id: string }>;
    return { donors, gifts: gifts.map((g) => g.id) };
  } finally {
    db.close();
  }
}

describe('a join killed half-way', () => {
  it('goes on from its cursor when the station serves, and ends with every record once', async () => {
    hub = await startHub(env, { donors: DONORS });
    const h = hub;
    const campaignId = listOf((await h.request('GET', `/api/v1/campaigns?accountId=${h.accountId}`)).body)[0]!
      .id;
    const donors = listOf(
      (await h.request('GET', `/api/v1/contacts?accountId=${h.accountId}&limit=20`)).body,
    ).slice(0, 10);
    for (const [i, d] of donors.entries())
      for (const amount of i === 0 ? [19.99, 19.99] : [25 + i])
        expect(
          (
            await h.request('POST', '/api/v1/donations', {
              accountId: h.accountId,
              contactId: d.id,
              donationAmount: amount,
              donationDate: '2026-05-01',
              paymentMethod: 'cash',
              campaignId,
            })
          ).status,
        ).toBe(201);

    const code = await h.code();
    const stationDir = tempDir('giftdesk-station-');
    const join = spawn(
      process.execPath,
      [
        BIN,
        'hub',
        'join',
        code.url,
        '--code',
        code.code,
        '--fingerprint',
        code.fingerprint,
        '--name',
        'Late table',
        '--data-dir',
        stationDir,
        '--json',
      ],
      { env, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => join.on('exit', resolve));
    // Killed once some donors are here and not all.
    await until(
      'the join half-way',
      () => {
        try {
          const n = contents(stationDir, h.accountId).donors.length;
          return n > 0 && n < DONORS;
        } catch {
          return false; // not created yet
        }
      },
      { timeoutMs: 120_000, everyMs: 20 },
    );
    join.kill('SIGKILL');
    await exited;
    const half = contents(stationDir, h.accountId).donors.length;
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(DONORS);

    station = await spawnGiftdesk(['serve', '--port', '0', '--json', '--data-dir', stationDir], env);
    const atHub = contents(h.dataDir, h.accountId);
    await until(
      'every donor and gift of the hub at the station',
      () => {
        const here = contents(stationDir, h.accountId);
        return here.donors.length >= atHub.donors.length && here.gifts.length >= atHub.gifts.length;
      },
      { timeoutMs: 180_000, everyMs: 250 },
    );
    const here = contents(stationDir, h.accountId);
    expect(here.gifts).toEqual(atHub.gifts);
    expect(here.donors).toEqual(atHub.donors);
    expect(here.donors.find((d) => d.id === donors[0]!.id)?.cents).toBe(3998);
  }, 300_000);
});
