/**
 * kill -9 in the middle of gift entry: a `giftdesk serve` child takes donations from several
 * clients at once and is killed without warning, at a few different points, then started
 * again on the same folder, 21 times. After each restart SQLite's integrity check of the file
 * passes, and every gift that was answered 201 must be there, with its amount
 * and notes; every contact's total must equal the sum of its donations (including gifts that
 * were saved but whose answer was lost in the crash); counts and campaign totals must agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { dollarsToCents } from '#shared/money.ts';
import { cliJson, isolatedEnv, type ServeChild, startServe } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';

const dataDir = tempDir('giftdesk-crash-');
const { env, home } = isolatedEnv();
let server: ServeChild | undefined;
afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

interface Acked {
  id: string;
  contactId: string;
  cents: number;
  notes: string;
}

const CLIENTS = 6;
/**
 * Kill after this many gifts were acknowledged in the round, and that many ms later (so the
 * kill lands at different points of a group commit; several requests are always in flight).
 * 21 rounds: early (the first ack), mid-burst and late kills, with and without a delay.
 */
const KILL_POINTS: Array<[afterAcks: number, delayMs: number]> = [
  [1, 0],
  [17, 2],
  [60, 9],
  [2, 1],
  [5, 0],
  [8, 4],
  [13, 0],
  [21, 7],
  [3, 12],
  [34, 1],
  [9, 3],
  [1, 5],
  [25, 0],
  [6, 8],
  [40, 2],
  [11, 11],
  [4, 0],
  [29, 5],
  [15, 1],
  [7, 6],
  [50, 3],
];

/** SQLite's full integrity check (pages, and every index against its table) of the live file. */
function integrityCheck(file: string): string[] {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
  } finally {
    db.close();
  }
}

describe('a crash (kill -9) while gifts are being entered', () => {
  it('loses no acknowledged gift and leaves every total equal to its gifts', async () => {
    const { id: accountId } = (await cliJson(
      ['account', 'create', '--name', 'Crash Test Org', '--data-dir', dataDir],
      env,
    )) as { id: string };
    const { keyId, secret } = (await cliJson(
      ['key', 'create', '--account', accountId, '--data-dir', dataDir],
      env,
    )) as { keyId: string; secret: string };
    const auth = { 'x-api-key': keyId, authorization: `Bearer ${secret}` };
    const start = async () => {
      server = await startServe(
        ['--data-dir', dataDir, '--rate', '100000', '--burst', '100000', '--log-level', 'warn'],
        env,
      );
      return server;
    };
    const api = (method: string, path: string, body?: unknown) =>
      rawRequest(`${server!.url}/api/v1${path}`, method, body, auth);

    await start();
    const campaign = await api('POST', '/campaigns', { accountId, name: 'Gala' });
    const contactIds: string[] = [];
    for (const name of ['Ada', 'Grace', 'Katherine']) {
      const c = await api('POST', '/contacts', { accountId, firstName: name, lastName: 'Donor' });
      expect(c.status).toBe(201);
      contactIds.push(c.body.id);
    }

    const acked: Acked[] = [];
    /** New donors acknowledged 201 (namesakes among them), by id: each must be there after every crash. */
    const ackedContacts = new Map<string, string>();
    for (const [round, [killAfter, delayMs]] of KILL_POINTS.entries()) {
      const url = server!.url;
      let ackedThisRound = 0;
      let killed = false;
      let seq = 0;
      const client = async (n: number) => {
        while (!killed) {
          const i = seq++;
          const contactId = contactIds[(n + i) % contactIds.length]!;
          const cents = 100 + ((i * 7919 + n * 104_729) % 500_000); // $1.00 … $5,000.99, odd cents included
          const notes = `ext-ref r${round}-c${n}-${i} Zoë ✓`;
          try {
            const r = await rawRequest(
              `${url}/api/v1/donations`,
              'POST',
              {
                accountId,
                contactId,
                donationAmount: cents / 100,
                donationDate: '2026-11-21T19:30:00-05:00',
                paymentMethod: 'credit_card',
                campaignId: campaign.body.id,
                notes,
              },
              auth,
            );
            if (r.status === 201) {
              acked.push({ id: r.body.id, contactId, cents, notes });
              ackedThisRound += 1;
              if (ackedThisRound === killAfter) {
                // mid-stream: the other clients' requests are in flight, some in a commit
                setTimeout(() => {
                  killed = true;
                  server!.child.kill('SIGKILL');
                }, delayMs);
              }
            } else if (!killed) {
              throw new Error(`unexpected ${r.status}: ${r.text}`);
            }
          } catch (err) {
            if (!killed) throw err; // a request cut off by the kill has an unknown outcome: fine
          }
        }
      };
      // Another writer meanwhile: new donors at the door, three of every four named Robert Brown.
      const door = async () => {
        for (let i = 0; !killed; i++) {
          const firstName = i % 4 === 3 ? `Guest${round}-${i}` : 'Robert';
          try {
            const r = await rawRequest(
              `${url}/api/v1/contacts`,
              'POST',
              { accountId, firstName, lastName: 'Brown', primaryEmail: `rb${round}.${i}@example.org` },
              auth,
            );
            if (r.status === 201) ackedContacts.set(r.body.id, firstName);
            else if (!killed) throw new Error(`unexpected ${r.status}: ${r.text}`);
          } catch (err) {
            if (!killed) throw err;
          }
        }
      };
      await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), door()]);
      expect(await server!.exited).toBe('SIGKILL');

      const t0 = Date.now();
      await start(); // same folder, after a crash (the server's own check at start passed)
      if (process.env.GIFTDESK_CRASH_TIMING)
        process.stdout.write(`round ${round + 1}: restart ${Date.now() - t0} ms, ${acked.length} acked\n`);
      expect(
        integrityCheck(path.join(dataDir, 'giftdesk.sqlite')),
        `integrity after kill ${round + 1}`,
      ).toEqual(['ok']);
      await verify(acked);
    }
    expect(acked.length).toBeGreaterThanOrEqual(KILL_POINTS.reduce((n, [after]) => n + after, 0));
    expect(ackedContacts.size).toBeGreaterThan(0);

    async function verify(expected: Acked[]): Promise<void> {
      // every donation in the database, through the API, newest first
      const all: Array<{ id: string; contactId: string; donationAmount: number; notes: string }> = [];
      let total = -1;
      for (let offset = 0; total < 0 || offset < total; offset += 100) {
        const page = await api('GET', `/donations?accountId=${accountId}&limit=100&offset=${offset}`);
        expect(page.status).toBe(200);
        total = page.body.total;
        all.push(...page.body.donations);
        if (page.body.donations.length === 0) break;
      }
      expect(all.length).toBe(total);
      const byId = new Map(all.map((d) => [d.id, d]));
      for (const g of expected) {
        const d = byId.get(g.id);
        expect(d, `acknowledged gift ${g.id} (${g.notes}) is missing after the crash`).toBeDefined();
        expect(dollarsToCents(d!.donationAmount)).toBe(g.cents);
        expect(d!.notes).toBe(g.notes);
        expect(d!.contactId).toBe(g.contactId);
      }
      for (const contactId of contactIds) {
        const c = await api('GET', `/contacts/${contactId}?accountId=${accountId}`);
        const sum = all
          .filter((d) => d.contactId === contactId)
          .reduce((s, d) => s + dollarsToCents(d.donationAmount)!, 0);
        expect(dollarsToCents(c.body.totalDonations), `total of ${contactId}`).toBe(sum);
      }
      for (const [id, firstName] of ackedContacts) {
        const c = await api('GET', `/contacts/${id}?accountId=${accountId}`);
        expect(c.status, `acknowledged contact ${id} is missing after the crash`).toBe(200);
        expect(c.body.firstName).toBe(firstName);
      }
      const account = await api('GET', `/account?accountId=${accountId}`);
      expect(account.body.donations).toBe(all.length);
      const cmp = await api('GET', `/campaigns/${campaign.body.id}?accountId=${accountId}`);
      expect(cmp.body.donationCount).toBe(all.length);
      expect(dollarsToCents(cmp.body.totalRaised)).toBe(
        all.reduce((s, d) => s + dollarsToCents(d.donationAmount)!, 0),
      );
    }

    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
  }, 300_000);
});
