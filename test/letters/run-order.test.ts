/**
 * A run reads its letter order a page at a time (donorOrderPages: each page one pass over the
 * run's recorded donors, keeping the least after the last page's last donor), so that what it
 * holds does not grow with the run. The order must be the one the whole set sorted at once
 * gives (by name with the collator, then id): namesakes split across a page boundary, names
 * equal to the collator but not as strings ("Łukasz Żółć", "Lukasz Zolc"), and a page of one.
 * Real SQLite (or PostgreSQL with GIFTDESK_TEST_DATABASE_URL), real worker threads, PDFs read
 * back with pdf.js.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LetterRun } from '#shared/schemas/letters.ts';
import { letterRunLimits, selectLetters, waitForRun } from '../../electron/letters/index.ts';
import { donorOrderPages } from '../../electron/letters/paged.ts';
import { makeCampaign } from '../helpers/api-fixtures.ts';
import { importRows } from '../helpers/import-rows.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { amountsOn, pdfPages } from './pdf-text.ts';

let s: TestServer;

/** First and last names: namesakes, and names the collator puts together though their letters differ. */
const PEOPLE: [string, string][] = [
  ['Robert', 'Brown'],
  ['Zoë', 'Adams'],
  ['Robert', 'Brown'],
  ['Łukasz', 'Żółć'],
  ['Lukasz', 'Zolc'],
  ['Robert', 'Brown'],
  ['Anna', 'Ångström'],
  ['anna', 'angstrom'],
  ['Łukasz', 'Żółć'],
  ['Émile', 'Zola'],
  ['Emile', 'Zola'],
  ['zoe', 'adams'],
  ['Robert', 'Browne'],
  ['Roberta', 'Brown'],
  ...Array.from({ length: 16 }, (_, i): [string, string] => ['Donor', `N${String(30 - i).padStart(3, '0')}`]),
];

beforeAll(async () => {
  s = await startTestServer();
  const campaignId = (await makeCampaign(s, 'Year-end appeal')).id;
  await importRows(
    s,
    'contacts',
    ['externalId', 'firstName', 'lastName'],
    PEOPLE.map(([first, last], i) => [`c${i}`, first, last]),
  );
  // One gift each, of an amount no other donor gave: a letter's amount says whose it is.
  await importRows(
    s,
    'donations',
    ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
    PEOPLE.map((_, i) => [`g${i}`, `c${i}`, `${100 + i}.00`, '2026-06-01', 'check', campaignId]),
  );
}, 120_000);

afterAll(async () => {
  await s?.close();
});

/** The order of the whole set sorted at once (selectLetters), as donor ids and as amounts. */
async function wholeOrder(): Promise<{ ids: string[]; amounts: string[] }> {
  const set = await selectLetters(s.ctx.store.db, s.accountId, { kind: 'year-end', year: 2026 });
  return {
    ids: set.documents.map((d) => d.donor.id),
    amounts: set.documents.map((d) => `$${(d.totalCents / 100).toFixed(2)}`),
  };
}

async function yearEndRun(): Promise<LetterRun> {
  const res = await s.request('POST', '/api/v1/letters/runs', {
    accountId: s.accountId,
    kind: 'year-end',
    year: 2026,
  });
  expect(res.status, res.text).toBe(201);
  return waitForRun(s.ctx, s.accountId, (res.body as LetterRun).id);
}

async function collect(pages: AsyncIterable<string[]>): Promise<string[][]> {
  const out: string[][] = [];
  for await (const p of pages) out.push(p);
  return out;
}

describe("a run's letter order, read a page at a time", () => {
  it('prints the letters in the order of the whole set sorted at once, with two donors to a page of the order', async () => {
    const was = letterRunLimits.orderPage;
    letterRunLimits.orderPage = 2;
    let run: LetterRun;
    try {
      run = await yearEndRun();
    } finally {
      letterRunLimits.orderPage = was;
    }
    expect(run).toMatchObject({ status: 'done', documents: PEOPLE.length, rendered: PEOPLE.length });
    const pdf = await pdfPages(`${s.dataDir}/letters/${run.id}.pdf`);
    expect(pdf.map((lines) => amountsOn(lines)[0])).toEqual((await wholeOrder()).amounts);
  }, 120_000);

  it('gives every donor once, in the same order, whatever the page size', async () => {
    const run = await yearEndRun();
    const { ids } = await wholeOrder();
    // The three namesakes and the two "Łukasz Żółć" sit side by side, ordered by id.
    const names = PEOPLE.map(([f, l]) => `${f} ${l}`);
    const byId = new Map(
      (await s.ctx.store.db.selectFrom('contacts').select(['id', 'externalId']).execute()).map((c) => [
        c.id,
        names[Number(c.externalId!.slice(1))]!,
      ]),
    );
    const ordered = ids.map((id) => byId.get(id));
    const browns = ordered.flatMap((n, i) => (n === 'Robert Brown' ? [i] : []));
    expect(browns[2]! - browns[0]!).toBe(2);
    for (const size of [1, 2, 3, 4, 7, PEOPLE.length - 1, PEOPLE.length, 10_000]) {
      const pages = await collect(donorOrderPages(s.ctx.store.db, run.id, size));
      expect(pages.flat(), `pages of ${size}`).toEqual(ids);
      expect(pages.slice(0, -1).every((p) => p.length === size)).toBe(true);
    }
  }, 120_000);
});
