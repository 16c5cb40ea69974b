/**
 * `giftdesk import donations` killed with SIGKILL mid-file: each chunk is one transaction, so
 * what was committed is whole (every saved gift counted in its donor's total and the account's
 * count, nothing half-written; the totals it had not moved yet wait, committed with their gifts,
 * and the next open adds them), and running the same file again adds exactly the rest —
 * twin gifts (same donor, $19.99 cash, same minute, each with its own externalId) both kept.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server.ts';
import { cliOrg, giftdesk, jsonOut } from './fixtures.ts';

const BIN = path.resolve('bin/giftdesk.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const DONORS = 400;
const GIFTS = 40_000;

function state(dbFile: string) {
  const db = new BetterSqlite3(dbFile, { readonly: true });
  try {
    const one = (q: string) => Number((db.prepare(q).get() as { n: number | null }).n ?? 0);
    return {
      gifts: one('select count(*) as n from donations'),
      cents: one('select sum(amount_cents) as n from donations'),
      totals: one('select sum(total_cents) as n from contacts'),
      wrongTotals: one(
        'select count(*) as n from contacts c where total_cents != coalesce((select sum(amount_cents) from donations d where d.contact_id = c.id), 0)',
      ),
      counted: one('select sum(donations) as n from account_counter_slots'),
      /** gifts saved whose donors' totals the import had not moved yet */
      pending: one('select sum(cents) as n from donor_total_deltas'),
      wrongWithPending: one(
        'select count(*) as n from contacts c where total_cents + coalesce((select sum(cents) from donor_total_deltas p where p.contact_id = c.id), 0) != coalesce((select sum(amount_cents) from donations d where d.contact_id = c.id), 0)',
      ),
      twins: one("select count(*) as n from donations where amount_cents = 1999 and payment_method = 'cash'"),
      distinctExternal: one('select count(distinct external_id) as n from donations'),
    };
  } finally {
    db.close();
  }
}

describe('a CLI import killed with SIGKILL', () => {
  it('keeps every committed chunk whole with its totals, and a re-run adds exactly the rest', async () => {
    const dataDir = tempDir('giftdesk-cli-crash-');
    dirs.push(dataDir);
    const dbFile = path.join(dataDir, 'giftdesk.sqlite');
    const { accountId, campaignId } = await cliOrg(dataDir, 'Crash Org');
    const contacts = path.join(dataDir, 'contacts.csv');
    let text = 'externalId,firstName,lastName\n';
    // namesakes: three Robert Browns, and accents typed with and without
    for (let i = 0; i < DONORS; i++)
      text += `c${i},${['Robert', 'Zoë', 'Zoe', 'José'][i % 4]},${['Brown', 'García', 'Garcia'][i % 3]}\n`;
    fs.writeFileSync(contacts, text);
    expect(
      jsonOut(
        await giftdesk([
          'import',
          'contacts',
          contacts,
          '--account',
          accountId,
          '--data-dir',
          dataDir,
          '--json',
        ]),
      ),
    ).toMatchObject({ imported: DONORS });

    const gifts = path.join(dataDir, 'gifts.csv');
    text = 'externalId,contactExternalId,donationAmount,donationDate,paymentMethod,campaignId\n';
    for (let i = 0; i < GIFTS; i++) {
      // every 50th pair: twins (same donor, $19.99 cash, same minute)
      const twin = i % 50 === 49 ? i - 1 : i;
      const special = i % 50 >= 48;
      text += `g${i},c${(twin * 7919) % DONORS},${special ? '19.99' : `${(twin % 90) + 10}.25`},2025-0${(twin % 9) + 1}-1${twin % 10}T10:1${twin % 6}:00Z,${special ? 'cash' : 'check'},${campaignId}\n`;
    }
    fs.writeFileSync(gifts, text);

    const args = [BIN, 'import', 'donations', gifts, '--account', accountId, '--data-dir', dataDir, '--json'];
    const env = { ...process.env };
    delete env.GIFTDESK_DATA_DIR;
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    // Kill it once some chunks are committed (and before the end).
    for (;;) {
      await new Promise((r) => setTimeout(r, 20));
      if (child.exitCode !== null) break;
      if (fs.existsSync(dbFile) && state(dbFile).gifts > 0) {
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited).toBe('SIGKILL');

    // The file as the kill left it: every saved gift either in its donor's total or in the
    // import's pending deltas, committed with it (the CLI moves totals once, at its end).
    const cut = state(dbFile);
    expect(cut.gifts).toBeGreaterThan(0);
    expect(cut.gifts).toBeLessThan(GIFTS);
    expect(cut.pending).toBeGreaterThan(0);
    expect(cut.totals + cut.pending).toBe(cut.cents);
    expect(cut.wrongWithPending).toBe(0);
    expect(cut.counted).toBe(cut.gifts);

    // The next command to open the file adds them before it reads anything.
    await giftdesk(['flags', '--account', accountId, '--data-dir', dataDir, '--json']);
    const reopened = state(dbFile);
    expect(reopened).toMatchObject({ gifts: cut.gifts, pending: 0, wrongTotals: 0, counted: cut.gifts });
    expect(reopened.totals).toBe(cut.cents);

    const again = jsonOut(
      await giftdesk(['import', 'donations', gifts, '--account', accountId, '--data-dir', dataDir, '--json']),
    );
    expect(again).toMatchObject({ imported: GIFTS - cut.gifts, skipped: cut.gifts, rejected: [] });
    const done = state(dbFile);
    expect(done).toMatchObject({
      pending: 0,
      gifts: GIFTS,
      distinctExternal: GIFTS,
      twins: (GIFTS / 50) * 2,
      wrongTotals: 0,
      counted: GIFTS,
    });
    expect(done.totals).toBe(done.cents);
  }, 120_000);
});
