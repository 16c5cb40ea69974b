/**
 * GET /api/v1/donations pages through the same list at every offset: newest first, ties by id
 * (descending), voided gifts left out, one account's gifts only, with and without a date
 * range. The data are an event's: twin gifts (same donor, $19.99 cash, same minute), three
 * Robert Browns, a burst of gifts on one day, a voided gift, and a second account giving on
 * the same dates. Every page, at any offset and size, must be the matching slice of the whole
 * list in the one order; and on SQLite the page is read off the index alone.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationPageQuery } from '../../electron/domain/donations/index.ts';
import {
  asNewAccount,
  expectStatus,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { startTestServer, TEST_ENGINE, type TestServer } from '../helpers/server.ts';

interface Listed {
  id: string;
  contactId: string;
  contactName: string;
  donationAmount: number;
  donationDate: string;
  paymentMethod: string;
  campaignName: string | null;
  notes: string | null;
}

interface Made {
  id: string;
  contactName: string;
  donationAmount: number;
  donationDate: string;
  notes: string;
}

let s: TestServer;
let other: TestServer;
/** The main account's gifts that the list shows (not the voided one). */
const listed: Made[] = [];
let voidedId = '';

/** Newest first, ties by id descending: the list's order, computed apart from the server. */
const inListOrder = (a: Made, b: Made) =>
  a.donationDate === b.donationDate
    ? a.id < b.id
      ? 1
      : a.id > b.id
        ? -1
        : 0
    : a.donationDate < b.donationDate
      ? 1
      : -1;

beforeAll(async () => {
  s = await startTestServer();
  other = await asNewAccount(s);
  const campaign = await makeCampaign(s, 'Spring Gala');
  const otherCampaign = await makeCampaign(other, 'Spring Gala');
  // Three Robert Browns (one typed without the accent on his street, all the same name) and a José typed "Jose".
  const roberts = [];
  for (const email of ['rbrown@example.org', 'robert.brown@example.net', 'rbrown@example.org']) {
    roberts.push(await makeContact(s, { firstName: 'Robert', lastName: 'Brown', primaryEmail: email }));
  }
  const jose = await makeContact(s, { firstName: 'José', lastName: 'Núñez' });
  const joseUnaccented = await makeContact(s, { firstName: 'Jose', lastName: 'Nunez' });
  const otherDonor = await makeContact(other, { firstName: 'Robert', lastName: 'Brown' });

  let n = 0;
  const give = async (
    donor: { id: string; firstName?: string; lastName?: string },
    amount: number,
    date: string,
    method = 'cash',
  ) => {
    n += 1;
    const notes = `gift ${n}`;
    const d = await makeDonation(s, donor.id, {
      campaignId: campaign.id,
      donationAmount: amount,
      donationDate: date,
      paymentMethod: method,
      notes,
    });
    const made = {
      id: d.id,
      contactName: `${donor.firstName ?? ''} ${donor.lastName ?? ''}`.trim(),
      donationAmount: amount,
      donationDate: d.donationDate,
      notes,
    };
    listed.push(made);
    // The other account gives the same gift at the same minute: never in this account's pages.
    await makeDonation(other, otherDonor.id, {
      campaignId: otherCampaign.id,
      donationAmount: amount,
      donationDate: date,
      paymentMethod: method,
      notes: `other ${n}`,
    });
    return made;
  };
  // Twins: the same donor, $19.99 cash, the same minute, three times; and twice for a namesake.
  for (let i = 0; i < 3; i++) await give(roberts[0]!, 19.99, '2026-03-14T18:05:00Z');
  for (let i = 0; i < 2; i++) await give(roberts[1]!, 19.99, '2026-03-14T18:05:00Z');
  await give(roberts[2]!, 19.99, '2026-03-14T18:05:00.000Z');
  // A burst on one day (date-only: midnight UTC), mixed donors and amounts.
  for (let i = 0; i < 12; i++)
    await give([jose, joseUnaccented, ...roberts][i % 5]!, i % 2 === 0 ? 25 : 19.99, '2026-03-15');
  // Spread over months, the same timestamps in other time zones among them.
  for (let i = 1; i <= 14; i++)
    await give(
      i % 2 ? jose : roberts[i % 3]!,
      10 + i,
      `2026-0${1 + (i % 6)}-${String(1 + ((i * 3) % 27)).padStart(2, '0')}T09:30:00+02:00`,
      'check',
    );
  await give(joseUnaccented, 5, '2026-03-14T19:05:00+01:00'); // the twins' minute, written in another zone
  // One gift voided: it leaves the list and the totals.
  const voided = await give(roberts[0]!, 19.99, '2026-03-14T18:05:00Z');
  voidedId = voided.id;
  expectStatus(
    await s.request('POST', `/api/v1/donations/${voidedId}/void`, {
      accountId: s.accountId,
      reason: 'typed twice',
    }),
    200,
  );
  listed.splice(listed.indexOf(voided), 1);
  listed.sort(inListOrder);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

async function page(
  query: string,
  t: TestServer = s,
): Promise<{ donations: Listed[]; total: number; limit: number; offset: number }> {
  return expectStatus(await t.request('GET', `/api/v1/donations?accountId=${t.accountId}${query}`), 200);
}

async function allPages(size: number, filter = ''): Promise<Listed[]> {
  const out: Listed[] = [];
  for (let offset = 0; ; offset += size) {
    const p = await page(`&limit=${size}&offset=${offset}${filter}`);
    out.push(...p.donations);
    if (p.donations.length < size) return out;
  }
}

describe('the donations list, page by page', () => {
  it('lists every gift of the account once, newest first with ties by id, the voided one left out', async () => {
    const whole = await page('&limit=100');
    expect(whole.total).toBe(listed.length);
    expect(whole.donations.map((d) => d.id)).toEqual(listed.map((d) => d.id));
    expect(whole.donations.map((d) => d.id)).not.toContain(voidedId);
    for (const [i, d] of whole.donations.entries()) {
      expect(d).toMatchObject({
        contactName: listed[i]!.contactName,
        donationAmount: listed[i]!.donationAmount,
        notes: listed[i]!.notes,
        campaignName: 'Spring Gala',
      });
    }
    // The twins really are ties on the sort key (same instant, same amount, same donor).
    const twins = whole.donations.filter((d) => d.donationDate === '2026-03-14T18:05:00.000Z');
    expect(twins).toHaveLength(7);
  });

  it('gives the same rows in the same order whatever the page size and offset', async () => {
    const ids = listed.map((d) => d.id);
    for (const size of [1, 2, 3, 7, 10, 100]) {
      expect(
        (await allPages(size)).map((d) => d.id),
        `pages of ${size}`,
      ).toEqual(ids);
    }
    // Pages that start inside the run of twins and inside the burst.
    const firstTwin = listed.findIndex((d) => d.donationDate === '2026-03-14T18:05:00.000Z');
    for (const offset of [
      firstTwin,
      firstTwin + 1,
      firstTwin + 4,
      firstTwin + 6,
      listed.length - 1,
      listed.length,
    ]) {
      const p = await page(`&limit=3&offset=${offset}`);
      expect(
        p.donations.map((d) => d.id),
        `offset ${offset}`,
      ).toEqual(ids.slice(offset, offset + 3));
      expect(p).toMatchObject({ total: ids.length, limit: 3, offset });
    }
  });

  it('pages through a date range the same way, with its own total', async () => {
    const inRange = listed.filter(
      (d) => d.donationDate >= '2026-03-14T00:00:00.000Z' && d.donationDate <= '2026-03-15T23:59:59.999Z',
    );
    expect(inRange.length).toBeGreaterThan(18);
    for (const size of [1, 4, 100]) {
      expect(
        (await allPages(size, '&startDate=2026-03-14&endDate=2026-03-15')).map((d) => d.id),
        `pages of ${size}`,
      ).toEqual(inRange.map((d) => d.id));
    }
    const p = await page('&limit=5&offset=5&startDate=2026-03-14&endDate=2026-03-15');
    expect(p.total).toBe(inRange.length);
    expect(p.donations.map((d) => d.id)).toEqual(inRange.slice(5, 10).map((d) => d.id));
    const onlyStart = listed.filter((d) => d.donationDate >= '2026-03-15T00:00:00.000Z');
    expect((await allPages(6, '&startDate=2026-03-15')).map((d) => d.id)).toEqual(onlyStart.map((d) => d.id));
  });

  it('shows another account only its own gifts, at the same dates', async () => {
    const theirs = await page('&limit=100', other);
    expect(theirs.total).toBe(listed.length + 1); // their copy of the voided gift stays: they never voided it
    const mine = new Set(listed.map((d) => d.id));
    expect(theirs.donations.filter((d) => mine.has(d.id))).toEqual([]);
    expect(new Set(theirs.donations.map((d) => d.notes?.slice(0, 5)))).toEqual(new Set(['other']));
  });

  it.runIf(TEST_ENGINE === 'sqlite')(
    'on SQLite, reads a page (offset, range, voided test) off the index alone: no table row per skipped gift',
    async () => {
      for (const q of [
        { accountId: s.accountId, limit: 100, offset: 900 },
        { accountId: s.accountId, limit: 20, offset: 5, startDate: '2026-03-14', endDate: '2026-03-15' },
      ]) {
        const c = donationPageQuery(s.ctx, q).compile();
        const plan = await s.store.db.executeQuery(
          CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]),
        );
        const text = plan.rows.map((r) => (r as { detail: string }).detail).join(' | ');
        expect(text, c.sql).toMatch(/USING COVERING INDEX donations_account_date_status/);
        expect(text, c.sql).not.toMatch(/TEMP B-TREE/);
      }
    },
  );
});
