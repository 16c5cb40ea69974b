/**
 * Many devices posting at once (HQ mode). Runs on whichever engine the suite runs on;
 * on PostgreSQL the requests really do run in parallel transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe('20 clients posting donations for overlapping donors at once', () => {
  it('keeps every 201, exact totals, and flags each over-limit gift exactly once', async () => {
    const accountId = s.accountId;
    const limit = 1000; // per election, dollars
    const amount = 150; // 6 gifts fit (900), the 7th and later are over
    const dac = await s.request('POST', '/api/v1/donation-accounts', {
      accountId,
      name: 'Federal',
      limits: { perElection: limit },
    });
    expect(dac.status).toBe(201);
    const donors: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await s.request('POST', '/api/v1/contacts', {
        accountId,
        firstName: `Donor${i}`,
        lastName: 'Race',
      });
      expect(c.status).toBe(201);
      donors.push(c.body.id);
    }
    const perClient = 10;
    const clients = 20;
    const created: Array<{ id: string; contactId: string }> = [];
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let k = 0; k < perClient; k++) {
          const contactId = donors[(client + k) % donors.length]!;
          const r = await s.request('POST', '/api/v1/donations', {
            accountId,
            contactId,
            donationAmount: amount,
            donationDate: '2026-03-01',
            paymentMethod: 'check',
            donationAccountId: dac.body.id,
            electionType: 'general',
            electionYear: 2026,
            notes: `client ${client} gift ${k}`,
          });
          expect(r.status).toBe(201);
          created.push({ id: r.body.id, contactId });
        }
      }),
    );
    expect(created).toHaveLength(clients * perClient);

    // every acknowledged gift is there, once
    const seen = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = await s.request(
        'GET',
        `/api/v1/donations?accountId=${accountId}&limit=100&offset=${offset}`,
      );
      for (const d of page.body.donations) seen.add(d.id);
      if (page.body.donations.length < 100) {
        expect(page.body.total).toBe(clients * perClient);
        break;
      }
    }
    expect([...seen].sort()).toEqual(created.map((c) => c.id).sort());

    // totals are exact
    for (const donor of donors) {
      const mine = created.filter((c) => c.contactId === donor).length;
      const c = await s.request('GET', `/api/v1/contacts/${donor}?accountId=${accountId}`);
      expect(c.body.totalDonations).toBe(mine * amount);
    }

    // each donor's gifts were checked one after another: the 7th, 8th, … gift is flagged once,
    // with the donor's running total 1050, 1200, … (a race would repeat or skip a total)
    const flags = await s.request('GET', `/api/v1/flags?accountId=${accountId}&state=all`);
    const flagged: Array<{ donationId: string; contactId: string; donorTotal: number; limitKind: string }> =
      flags.body.flagged;
    expect(new Set(flagged.map((f) => f.donationId)).size).toBe(flagged.length);
    for (const donor of donors) {
      const mine = created.filter((c) => c.contactId === donor).length;
      const fits = Math.floor(limit / amount);
      const totals = flagged
        .filter((f) => f.contactId === donor)
        .map((f) => f.donorTotal)
        .sort((a, b) => a - b);
      const expected = Array.from({ length: mine - fits }, (_, i) => (fits + 1 + i) * amount);
      expect(totals).toEqual(expected);
    }
  });

  it('a PUT racing a DELETE of the same contact ends in one clear outcome', async () => {
    const accountId = s.accountId;
    for (let round = 0; round < 10; round++) {
      const c = await s.request('POST', '/api/v1/contacts', {
        accountId,
        firstName: 'Racy',
        lastName: `Round${round}`,
      });
      const id = c.body.id;
      const [put, del] = await Promise.all([
        s.request('PUT', `/api/v1/contacts/${id}`, {
          lastName: 'Changed',
          phoneNumbers: [{ phoneNumber: '555-0100' }],
        }),
        s.request('DELETE', `/api/v1/contacts/${id}?accountId=${accountId}`),
      ]);
      expect(del.status).toBe(200);
      expect([200, 404]).toContain(put.status);
      const after = await s.request('GET', `/api/v1/contacts/${id}?accountId=${accountId}`);
      expect(after.status).toBe(404);
    }
  });
});
