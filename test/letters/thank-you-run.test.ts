/**
 * A thank-you run for 300 donors, read back page by page from the PDF with pdf.js: every donor
 * once, with exactly their gifts of the period not yet thanked and the total to the cent, and
 * every name as typed — Latin Extended and Vietnamese included — then "mark as sent" marks
 * exactly those gifts, and a second not-thanked run finds nothing.
 */
import { formatCents } from '#shared/money.ts';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLetterRun, markRunSent, startLetterRun, waitForRun } from '../../electron/letters/index.ts';
import {
  expectStatus,
  getDonation,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { amountsOn, pdfPages } from './pdf-text.ts';

interface Donor {
  id: string;
  name: string;
  first: string;
  street: string;
  /** The cents of the gifts the run must list, by date. */
  expected: number[];
}

const SPECIAL: [string, string][] = [
  ['Łukasz', 'Żółć'],
  ['Nguyễn Thị Minh', 'Khai'],
  ['Zoë', 'Núñez'],
  ['Siobhán', "O'Brien"],
  ['Robert', 'Brown'],
  ['Robert', 'Brown'],
  ['Robert', 'Brown'],
];
const FIRST = ['Ana', 'Björn', 'Chloé', 'Dmitri', 'Éva', 'Farah', 'Günter', 'Hà', 'Iñigo', 'Jana'];
const LAST = [
  'Ålund',
  'Bạch',
  'Černý',
  'Dąbrowska',
  'Eriksson',
  'Fontaine',
  'Gómez',
  'Hồ',
  'Ivanović',
  'Jönsson',
];

let s: TestServer;
const donors: Donor[] = [];
/** Gifts the run must leave alone: before the period, voided, or thanked already (with that date). */
const untouched: { id: string; thankYouSentDate: string | null }[] = [];
/** The gifts the run must cover. */
const covered: string[] = [];
let twins: Donor;
let anonymousDonor: Donor;
let twoCampaigns: Donor;

beforeAll(async () => {
  s = await startTestServer();
  const spring = await makeCampaign(s, 'Spring appeal');
  const autumn = await makeCampaign(s, 'Autumn appeal');
  for (let i = 0; i < 300; i++) {
    const [first, last] = SPECIAL[i] ?? [FIRST[i % 10]!, `${LAST[Math.floor(i / 10) % 10]!}-${i}`];
    const street = `${i + 1} Letterpress Lane`;
    const c = await makeContact(s, {
      firstName: first,
      lastName: last,
      addresses: [{ street1: street, city: 'Springfield', state: 'IL', postalCode: '62701' }],
    });
    const donor: Donor = { id: c.id, name: `${first} ${last}`, first, street, expected: [] };
    donors.push(donor);
    const cents = 1000 + i * 37;
    const gift = await makeDonation(s, c.id, {
      donationAmount: cents / 100,
      donationDate: '2026-03-02',
      campaignId: spring.id,
    });
    covered.push(gift.id);
    donor.expected.push(cents);
  }
  twins = donors[10]!;
  for (let k = 0; k < 2; k++)
    covered.push(
      (
        await makeDonation(s, twins.id, {
          donationAmount: 19.99,
          donationDate: '2026-03-05',
          paymentMethod: 'cash',
          campaignId: spring.id,
        })
      ).id,
    );
  twins.expected.push(1999, 1999);
  anonymousDonor = donors[11]!;
  covered.push(
    (
      await makeDonation(s, anonymousDonor.id, {
        donationAmount: 75.25,
        donationDate: '2026-03-06',
        campaignId: spring.id,
        isAnonymous: true,
      })
    ).id,
  );
  anonymousDonor.expected.push(7525);
  twoCampaigns = donors[12]!;
  covered.push(
    (
      await makeDonation(s, twoCampaigns.id, {
        donationAmount: 310.01,
        donationDate: '2026-03-20',
        campaignId: autumn.id,
      })
    ).id,
  );
  twoCampaigns.expected.push(31001);
  // Not in the run: before the period, voided, thanked already.
  const early = await makeDonation(s, donors[20]!.id, {
    donationAmount: 777.77,
    donationDate: '2026-02-27',
    campaignId: spring.id,
  });
  untouched.push({ id: early.id, thankYouSentDate: null });
  const voided = await makeDonation(s, donors[21]!.id, {
    donationAmount: 888.88,
    donationDate: '2026-03-03',
    campaignId: spring.id,
  });
  expectStatus(
    await s.request('POST', `/api/v1/donations/${voided.id}/void`, {
      accountId: s.accountId,
      reason: 'typed twice',
    }),
    200,
  );
  untouched.push({ id: voided.id, thankYouSentDate: null });
  const thanked = await makeDonation(s, donors[22]!.id, {
    donationAmount: 999.99,
    donationDate: '2026-03-04',
    campaignId: spring.id,
    thankYouSent: true,
    thankYouSentDate: '2026-03-10',
  });
  untouched.push({ id: thanked.id, thankYouSentDate: (await getDonation(s, thanked.id)).thankYouSentDate });
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe('a thank-you run for 300 donors', () => {
  it('prints each donor once with their gifts and total to the cent, every name exact; mark as sent marks exactly those', async () => {
    const choice = { kind: 'thank-you' as const, from: '2026-03-01', to: '2026-03-31', notThanked: true };
    const started = await startLetterRun(s.ctx, s.dataDir, { accountId: s.accountId, ...choice });
    expect(started.status).toBe('rendering');
    expect(started.documents).toBe(300);
    const run = await waitForRun(s.ctx, s.accountId, started.id);
    const giftCount = donors.reduce((n, d) => n + d.expected.length, 0);
    const total = donors.reduce((n, d) => n + d.expected.reduce((a, b) => a + b, 0), 0);
    expect(run).toMatchObject({
      status: 'done',
      documents: 300,
      rendered: 300,
      gifts: giftCount,
      error: null,
    });
    expect(Math.round(run.total * 100)).toBe(total);
    expect(run.pdfUrl).toBe(`/api/v1/letters/runs/${run.id}/pdf`);

    const file = path.join(s.dataDir, 'letters', `${run.id}.pdf`);
    const pages = await pdfPages(file);
    expect(pages).toHaveLength(300);
    const seen = new Map<string, number>();
    for (const lines of pages) {
      const mine = donors.filter((d) => lines.includes(d.street));
      expect(mine, lines.join(' | ')).toHaveLength(1);
      const d = mine[0]!;
      seen.set(d.id, (seen.get(d.id) ?? 0) + 1);
      expect(lines).toContain(d.name);
      expect(lines).toContain(`Dear ${d.first},`);
      const sum = d.expected.reduce((a, b) => a + b, 0);
      expect(amountsOn(lines), d.name).toEqual([...d.expected.map(formatCents), formatCents(sum)]);
    }
    expect(seen.size).toBe(300);
    for (const name of ['Łukasz Żółć', 'Nguyễn Thị Minh Khai', 'Zoë Núñez', "Siobhán O'Brien"])
      expect(pages.filter((p) => p.includes(name))).toHaveLength(1);
    expect(pages.filter((p) => p.includes('Robert Brown'))).toHaveLength(3);
    const text = pages.flat().join('\n');
    for (const absent of ['$777.77', '$888.88', '$999.99']) expect(text).not.toContain(absent);

    const marked = await markRunSent(s.ctx, s.accountId, run.id);
    expect(marked.marked).toBe(giftCount);
    expect((await getLetterRun(s.ctx, s.accountId, run.id)).markedSentAt).toBe(marked.markedSentAt);
    expect(covered).toHaveLength(giftCount);
    for (const id of covered) {
      const g = await getDonation(s, id);
      expect(g.thankYouSent, id).toBe(true);
      expect(g.thankYouSentDate).toBe(marked.markedSentAt);
    }
    for (const u of untouched) {
      const g = await getDonation(s, u.id);
      expect(g.thankYouSentDate, u.id).toBe(u.thankYouSentDate);
      expect(g.thankYouSent).toBe(u.thankYouSentDate !== null);
    }
    expect((await markRunSent(s.ctx, s.accountId, run.id)).marked).toBe(0);

    const again = await waitForRun(
      s.ctx,
      s.accountId,
      (await startLetterRun(s.ctx, s.dataDir, { accountId: s.accountId, ...choice })).id,
    );
    expect(again).toMatchObject({ status: 'done', documents: 0, gifts: 0, pdfUrl: null });
    expect(fs.existsSync(path.join(s.dataDir, 'letters', `${again.id}.pdf`))).toBe(false);
  }, 180_000);
});
