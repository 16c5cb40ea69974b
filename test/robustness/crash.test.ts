/**
 * kill -9 in the middle of gift entry: a `giftdesk serve` child takes donations from several
 * clients at once and is killed without warning, at a few different points, then started
 * again on the same folder. Every gift that was answered 201 must be there, with its amount
 * and notes; every contact's total must equal the sum of its donations (including gifts that
 * were saved but whose answer was lost in the crash); counts and campaign totals must agree.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { dollarsToCents } from '../../shared/money.ts';
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
 */
const KILL_POINTS: Array<[afterAcks: number, delayMs: number]> = [
  [1, 0],
  [17, 2],
  [60, 9],
];

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
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      expect(await server!.exited).toBe('SIGKILL');

      await start(); // same folder, after a crash
      await verify(acked);
    }
    expect(acked.length).toBeGreaterThanOrEqual(KILL_POINTS.reduce((n, [after]) => n + after, 0));

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
  });
});
