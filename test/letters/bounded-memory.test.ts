/**
 * Letters at HQ scale stay in bounded memory: a run's chunks go to the renderer only as it
 * draws them (a few in flight, never the whole run queued ahead), the preview reads its one
 * donor's gifts (not every gift of the choice), a second run waits for the first instead of
 * starting another renderer and still finishes, per-donor files are counted against the
 * run's stated limit, and a failed run's stored error names no path of the machine.
 * Real SQLite, real worker threads, PDFs read back with pdf.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/db/store.ts';
import type { DomainContext } from '../../electron/domain/index.ts';
import {
  type LetterPage,
  letterRendererStats,
  letterRunLimits,
  previewFirstLetter,
  renderPdf,
  rendererLimits,
  startLetterRun,
  waitForRun,
} from '../../electron/letters/index.ts';
import { makeCampaign } from '../helpers/api-fixtures.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.ts';
import { pdfPages } from './pdf-text.ts';
import { importRows } from '../helpers/import-rows.ts';

let s: TestServer;
const dirs: string[] = [];
/** Gifts of the three busiest donors (namesakes and "Łukasz Żółć"), each. */
const BUSY_GIFTS = 400;

beforeAll(async () => {
  s = await startTestServer({ engine: 'sqlite' });
  const campaignId = (await makeCampaign(s, 'Year-end appeal')).id;
  // "Aaron Abbott" comes first by name with two gifts; three donors have BUSY_GIFTS each; forty
  // more one gift each, two of them identical $19.99 cash twins.
  const names: [string, string][] = [
    ['Aaron', 'Abbott'],
    ['Łukasz', 'Żółć'],
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ...Array.from({ length: 40 }, (_, i): [string, string] => [i < 2 ? 'Ana' : `Donor${i}`, 'García']),
  ];
  await importRows(
    s,
    'contacts',
    ['externalId', 'firstName', 'lastName'],
    names.map(([f, l], i) => [`c${i}`, f, l]),
  );
  const gifts: string[][] = [];
  const add = (c: number, cents: number, day: number, method = 'check') =>
    gifts.push([
      `g${gifts.length}`,
      `c${c}`,
      (cents / 100).toFixed(2),
      `2026-${String(1 + (day % 12)).padStart(2, '0')}-${String(1 + (day % 28)).padStart(2, '0')}`,
      method,
      campaignId,
    ]);
  add(0, 5000, 3);
  add(0, 2500, 9);
  for (const c of [1, 2, 3]) for (let g = 0; g < BUSY_GIFTS; g++) add(c, 1000 + g, g);
  for (let c = 4; c < names.length; c++) add(c, c < 6 ? 1999 : 4000 + c, c, c < 6 ? 'cash' : 'check');
  await importRows(
    s,
    'donations',
    ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
    gifts,
  );
}, 180_000);

afterAll(async () => {
  await s?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The context with its database counting every row any statement answers. */
function countingRows(): { ctx: DomainContext; rows: () => number } {
  let rows = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (a) => a.node,
    transformResult: async (a) => {
      rows += a.result.rows.length;
      return a.result;
    },
  };
  const store = Object.create(s.store) as Store;
  Object.defineProperty(store, 'db', { value: s.store.db.withPlugin(plugin) });
  return { ctx: { ...s.ctx, store }, rows: () => rows };
}

describe('letters in bounded memory', () => {
  it('sends a run to the renderer a few chunks at a time, as it draws them', async () => {
    const dir = tempDir('giftdesk-letters-chunks-');
    dirs.push(dir);
    let made = 0;
    async function* chunks(): AsyncGenerator<LetterPage[]> {
      for (let c = 0; c < 40; c++) {
        made += 1;
        yield Array.from({ length: 5 }, (_, i) => ({
          blocks: [{ kind: 'paragraph' as const, text: `Dear Nguyễn Thị Minh Khai ${c}-${i}, thank you.` }],
        }));
      }
    }
    const { chunksPeak } = await renderPdf(chunks(), path.join(dir, 'letters.pdf'));
    expect(made).toBe(40);
    expect(chunksPeak).toBeGreaterThanOrEqual(1);
    expect(chunksPeak).toBeLessThanOrEqual(rendererLimits.chunksInFlight);
    expect((await pdfPages(path.join(dir, 'letters.pdf'))).length).toBe(200);
  });

  it("previews the first donor's letter reading that donor's gifts, not every gift of the choice", async () => {
    const { ctx, rows } = countingRows();
    const preview = await previewFirstLetter(ctx, s.accountId, { kind: 'year-end', year: 2026 });
    expect(preview).toMatchObject({ documents: 44, gifts: 2 + 3 * BUSY_GIFTS + 40 });
    const [page] = await pdfPages(preview.pdf);
    expect(page!.join(' ')).toContain('Aaron Abbott');
    expect(page!.join(' ')).toContain('$75.00');
    // Every row any statement answered: the counts, the donors' names, Aaron's two gifts, the
    // settings. Reading the choice's gifts would be 1,242 rows.
    expect(rows()).toBeLessThan(BUSY_GIFTS);
  });

  it('queues a second run behind the first (no new renderer) and finishes both', async () => {
    const base = letterRendererStats().peakWorkers;
    const choice = { accountId: s.accountId, kind: 'year-end' as const, year: 2026 };
    const [first, second] = await Promise.all([
      startLetterRun(s.ctx, s.dataDir, choice),
      startLetterRun(s.ctx, s.dataDir, { ...choice, kind: 'thank-you' as const, year: undefined }),
    ]);
    const previews = Promise.all(
      [1, 2, 3].map(() => previewFirstLetter(s.ctx, s.accountId, { kind: 'thank-you' })),
    );
    expect([first.status, second.status]).toEqual(['rendering', 'rendering']);
    expect([first.queued, second.queued].sort()).toEqual([false, true]);
    const done = await Promise.all([
      waitForRun(s.ctx, s.accountId, first.id),
      waitForRun(s.ctx, s.accountId, second.id),
    ]);
    await previews;
    for (const run of done)
      expect(run).toMatchObject({ status: 'done', queued: false, rendered: 44, error: null });
    expect(Math.max(base, letterRendererStats().peakWorkers)).toBeLessThanOrEqual(rendererLimits.workers);
    expect(letterRendererStats()).toMatchObject({ busy: 0, waiting: 0 });
  });

  it('refuses per-donor files beyond the limit the run states, naming perDonor', async () => {
    const was = letterRunLimits.perDonorFiles;
    letterRunLimits.perDonorFiles = 40;
    try {
      const res = await s.request('POST', '/api/v1/letters/runs', {
        accountId: s.accountId,
        kind: 'year-end',
        year: 2026,
        perDonor: true,
      });
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain('perDonor');
      expect(res.text).toContain('at most 40');
      expect(res.text).toContain('44 donors');
    } finally {
      letterRunLimits.perDonorFiles = was;
    }
  });

  it("stores a failed run's error without the data folder's path", async () => {
    const dataDir = tempDir('giftdesk-letters-blocked-');
    dirs.push(dataDir);
    // The letters folder cannot be made: a file has its name.
    fs.writeFileSync(path.join(dataDir, 'letters'), 'not a folder');
    const started = await startLetterRun(s.ctx, dataDir, {
      accountId: s.accountId,
      kind: 'year-end',
      year: 2026,
    });
    const run = await waitForRun(s.ctx, s.accountId, started.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The letters could not be printed: /);
    expect(run.error).not.toContain(dataDir);
    expect(run.error).not.toMatch(/[\\/]/);
  });

  it("reads a run's letters on a worker of its own: the server's connection reads none of the run's gifts, and the letters are the same", async () => {
    const choice = { accountId: s.accountId, kind: 'year-end' as const, year: 2026 };
    const during = async (ctx: DomainContext, rows: () => number) => {
      const started = await startLetterRun(ctx, s.dataDir, choice);
      const before = rows();
      const run = await waitForRun(ctx, s.accountId, started.id);
      expect(run).toMatchObject({ status: 'done', rendered: 44, error: null });
      return {
        rows: rows() - before,
        text: (await pdfPages(path.join(s.dataDir, 'letters', `${run.id}.pdf`))).flat().join(' '),
      };
    };
    const onWorker = countingRows();
    const worker = await during(onWorker.ctx, onWorker.rows);
    // A store that offers no reader has the run read on the server's thread, as before.
    const here = countingRows();
    Object.defineProperty(here.ctx.store, 'readerSpec', { value: undefined });
    const server = await during(here.ctx, here.rows);
    expect(server.rows).toBeGreaterThanOrEqual(2 + 3 * BUSY_GIFTS + 40);
    // What the server's own connection answered while the worker read: the run's row, no gift.
    expect(worker.rows).toBeLessThan(40);
    const dated = (t: string) => t.replace(/\b\w+ \d{1,2}, \d{4}\b/g, 'DATE');
    expect(dated(worker.text)).toBe(dated(server.text));
    expect(worker.text).toContain('Łukasz Żółć');
  });

  it('fails a run whose reading outgrows the memory a run may use, saying so, and the server goes on', async () => {
    const was = letterRunLimits.readerHeapMiB;
    letterRunLimits.readerHeapMiB = 2;
    try {
      const started = await startLetterRun(s.ctx, s.dataDir, {
        accountId: s.accountId,
        kind: 'year-end',
        year: 2026,
      });
      const run = await waitForRun(s.ctx, s.accountId, started.id);
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(
        /^The letters could not be printed: it needed more memory than a run may use \(.*GIFTDESK_LETTER_READER_MIB/,
      );
      expect(run.parts).toEqual([]);
      expect(fs.existsSync(path.join(s.dataDir, 'letters', `${run.id}.pdf`))).toBe(false);
    } finally {
      letterRunLimits.readerHeapMiB = was;
    }
    const res = await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&limit=1`);
    expect(res.status, res.text).toBe(200);
  });
});
