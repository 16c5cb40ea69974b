/**
 * A print run's reading must not take the processor from gift entry either: on Linux the
 * thread that reads and merges a run's letters (the letters reader) runs ten nice steps below
 * the process serving the app, as the render thread does, while the process keeps its own.
 * Real SQLite, a real run of year-end letters, the threads read from /proc.
 */
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterRendererStats, startLetterRun, waitForRun } from '../../electron/letters/index.ts';
import { makeCampaign } from '../helpers/api-fixtures.ts';
import { importRows } from '../helpers/import-rows.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { threadNices } from './thread-nices.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ engine: 'sqlite' });
  const campaignId = (await makeCampaign(s, 'Year-end appeal')).id;
  const names: [string, string][] = [
    ['Łukasz', 'Żółć'],
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ...Array.from({ length: 600 }, (_, i): [string, string] => [`Donor${i}`, 'García']),
  ];
  await importRows(
    s,
    'contacts',
    ['externalId', 'firstName', 'lastName'],
    names.map(([f, l], i) => [`c${i}`, f, l]),
  );
  // Three gifts each; the first donor's first two are identical $19.99 cash twins.
  const gifts = names.flatMap((_, c) =>
    [0, 1, 2].map((g) => [
      `g${c}-${g}`,
      `c${c}`,
      c === 0 && g < 2 ? '19.99' : `${10 + g}.00`,
      `2026-0${1 + g}-1${g}`,
      c === 0 && g < 2 ? 'cash' : 'check',
      campaignId,
    ]),
  );
  await importRows(
    s,
    'donations',
    ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
    gifts,
  );
}, 120_000);

afterAll(async () => {
  await s?.close();
});

// Linux only; and a process already near the lowest priority (nice 10 and above) leaves no room to see.
describe.skipIf(process.platform !== 'linux' || os.getPriority() > 9)('the letters reader thread', () => {
  it('reads and merges a run below the priority of the process serving gift entry', async () => {
    const own = os.getPriority();
    const lowered = Math.min(19, own + 10);
    const nicedThreads = new Set<number>();
    const watch = setInterval(() => {
      for (const [tid, nice] of threadNices()) if (nice === lowered) nicedThreads.add(tid);
    }, 1);
    try {
      const run = await startLetterRun(s.ctx, s.dataDir, {
        accountId: s.accountId,
        kind: 'year-end',
        year: 2026,
      });
      const done = await waitForRun(s.ctx, s.accountId, run.id);
      expect(done).toMatchObject({ status: 'done', documents: 604 });
    } finally {
      clearInterval(watch);
    }
    expect(os.getPriority()).toBe(own);
    // The run's render threads, and the reader beside them.
    expect(letterRendererStats().peakWorkers).toBe(1);
    expect(nicedThreads.size).toBe(2);
  });
});
