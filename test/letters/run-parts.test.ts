/**
 * A run of more letters than a part holds is printed in parts: each part a complete PDF of
 * consecutive letters, listed on the run (first and last letter, pages, its URL) and served by
 * its own route; the parts together hold every letter once, in order, and their page counts
 * add up to the pages printed. A run of fewer letters stays one PDF, as before parts. The part
 * size is the run's stated limit (letterRunLimits.lettersPerPart), made small here. Real
 * SQLite, real worker threads, PDFs read back with pdf.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LetterRun } from '#shared/schemas/letters.ts';
import { letterRunLimits, runPerDonorDir, waitForRun } from '../../electron/letters/index.ts';
import { makeCampaign } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { pdfPages } from './pdf-text.ts';
import { importRows } from '../helpers/import-rows.ts';

let s: TestServer;
const DONORS = 120;
/** The seventh donor's gifts: enough for a statement of more than one page. */
const BUSY_GIFTS = 70;
const name = (i: number) => `N${String(i + 1).padStart(3, '0')}`;

beforeAll(async () => {
  s = await startTestServer();
  const campaignId = (await makeCampaign(s, 'Year-end appeal')).id;
  // "Donor N001" … "Donor N120": the run's order by name is their number.
  await importRows(
    s,
    'contacts',
    ['externalId', 'firstName', 'lastName'],
    Array.from({ length: DONORS }, (_, i) => [`c${i}`, 'Donor', name(i)]),
  );
  const gifts: string[][] = [];
  for (let i = 0; i < DONORS; i++)
    for (let g = 0; g < (i === 6 ? BUSY_GIFTS : 1); g++)
      gifts.push([
        `g${gifts.length}`,
        `c${i}`,
        ((1000 + i * 10 + g) / 100).toFixed(2),
        `2026-${String(1 + (g % 12)).padStart(2, '0')}-${String(1 + (g % 28)).padStart(2, '0')}`,
        'check',
        campaignId,
      ]);
  await importRows(
    s,
    'donations',
    ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
    gifts,
  );
}, 180_000);

afterAll(async () => {
  await s?.close();
});

const auth = () => ({ 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` });
const query = () => `accountId=${encodeURIComponent(s.accountId)}`;

async function get(url: string): Promise<{ status: number; bytes: Uint8Array; type: string | null }> {
  const res = await fetch(`${s.url}${url}${url.includes('?') ? '&' : '?'}${query()}`, { headers: auth() });
  return {
    status: res.status,
    bytes: new Uint8Array(await res.arrayBuffer()),
    type: res.headers.get('content-type'),
  };
}

async function yearEndRun(body: Record<string, unknown> = {}): Promise<LetterRun> {
  const res = await s.request('POST', '/api/v1/letters/runs', {
    accountId: s.accountId,
    kind: 'year-end',
    year: 2026,
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  const started = res.body as LetterRun;
  await waitForRun(s.ctx, s.accountId, started.id);
  const read = await s.request('GET', `/api/v1/letters/runs/${started.id}?${query()}`);
  expect(read.status, read.text).toBe(200);
  return read.body as LetterRun;
}

/** Runs `work` with the run's stated letters per part set to `n`. */
async function withPartsOf<T>(n: number, work: () => Promise<T>): Promise<T> {
  const was = letterRunLimits.lettersPerPart;
  letterRunLimits.lettersPerPart = n;
  try {
    return await work();
  } finally {
    letterRunLimits.lettersPerPart = was;
  }
}

/** The donor each page of a PDF is for ("N051"), from its text. */
function donorsOf(pages: string[][]): string[] {
  return pages.map((lines) => /\bN\d{3}\b/.exec(lines.join(' '))?.[0] ?? '?');
}

describe('a run in parts', () => {
  it('prints 120 letters at 50 a part as three complete PDFs, each served, adding up to the run', async () => {
    const run = await withPartsOf(50, () => yearEndRun());
    expect(run).toMatchObject({ status: 'done', documents: DONORS, rendered: DONORS, error: null });
    expect(run.parts.map(({ part, firstLetter, lastLetter }) => [part, firstLetter, lastLetter])).toEqual([
      [1, 1, 50],
      [2, 51, 100],
      [3, 101, 120],
    ]);
    expect(run.parts.map((p) => p.pdfUrl)).toEqual(
      [1, 2, 3].map((n) => `/api/v1/letters/runs/${run.id}/parts/${n}/pdf`),
    );
    // The run's pdfUrl stays the one-PDF route, which refuses a run in parts (below): a script
    // written for one PDF stops there instead of printing the first 50 letters as the run.
    expect(run.pdfUrl).toBe(`/api/v1/letters/runs/${run.id}/pdf`);

    const donorsByPage: string[] = [];
    let pages = 0;
    for (const part of run.parts) {
      const res = await get(part.pdfUrl);
      expect(res.status).toBe(200);
      expect(res.type).toBe('application/pdf');
      const read = await pdfPages(res.bytes);
      expect(read.length).toBe(part.pages);
      pages += read.length;
      const donors = donorsOf(read);
      // Each part starts with its first letter's donor.
      expect(donors[0]).toBe(name(part.firstLetter - 1));
      donorsByPage.push(...donors);
    }
    // The busy donor's statement runs over more than one page: pages exceed letters.
    expect(pages).toBeGreaterThan(DONORS);
    expect(run.parts.reduce((sum, p) => sum + (p.pages ?? 0), 0)).toBe(pages);
    // Every letter once, in the run's order, across the parts (a statement's second page names no donor).
    expect(donorsByPage.filter((d) => d !== '?')).toEqual(Array.from({ length: DONORS }, (_, i) => name(i)));
    expect(donorsByPage.filter((d) => d === '?')).toHaveLength(pages - DONORS);

    // The one-PDF route names the parts instead of answering part of the run; no part 4.
    const whole = await s.request('GET', `${run.pdfUrl}?${query()}`);
    expect(whole.status, whole.text).toBe(409);
    expect(whole.text).toContain('run_in_parts');
    expect(whole.text).toContain('3 parts');
    const fourth = await s.request('GET', `/api/v1/letters/runs/${run.id}/parts/4/pdf?${query()}`);
    expect(fourth.status, fourth.text).toBe(404);
    expect(fourth.text).toContain('no_such_part');
    // The parts' files and nothing else of the run (no half-written file left).
    expect(
      fs
        .readdirSync(path.join(s.dataDir, 'letters'))
        .filter((f) => f.startsWith(run.id))
        .sort(),
    ).toEqual([1, 2, 3].map((n) => `${run.id}-part-${n}.pdf`));
  }, 120_000);

  it('keeps a run of fewer letters than a part holds as its one PDF', async () => {
    const run = await withPartsOf(DONORS, () => yearEndRun());
    expect(run.pdfUrl).toBe(`/api/v1/letters/runs/${run.id}/pdf`);
    expect(run.parts).toHaveLength(1);
    expect(run.parts[0]).toMatchObject({ part: 1, firstLetter: 1, lastLetter: DONORS });
    const whole = await get(run.pdfUrl!);
    expect(whole.status).toBe(200);
    const first = await get(run.parts[0]!.pdfUrl);
    expect(first.status).toBe(200);
    expect(Buffer.from(first.bytes).equals(Buffer.from(whole.bytes))).toBe(true);
    expect((await pdfPages(whole.bytes)).length).toBe(run.parts[0]!.pages);
    expect(fs.existsSync(path.join(s.dataDir, 'letters', `${run.id}.pdf`))).toBe(true);
  }, 120_000);

  it('writes every per-donor file of a run in parts, as of a run in one', async () => {
    const run = await withPartsOf(50, () => yearEndRun({ perDonor: true }));
    expect(run.parts).toHaveLength(3);
    const files = fs.readdirSync(path.join(s.dataDir, runPerDonorDir(run.id)));
    expect(files.filter((f) => f.endsWith('.pdf'))).toHaveLength(DONORS);
  }, 120_000);
});
