/**
 * One side of part `letters`' first figure, in a process of its own so its peak memory is
 * its own (bench/letters.ts starts it):
 *
 *   node --import tsx bench/letters-side.ts ours <dataDir> <accountId> [cold]
 *   node --import tsx bench/letters-side.ts bare|plain <pages.json> <out.pdf>
 *
 * `ours`: the run through GiftDesk's run path on the data folder (store opened first, and the
 * first letter previewed as the Letters screen does before a run, untimed; with `cold`, no
 * preview: the renderer starts inside the timed part, as for a first `giftdesk letters`). `bare`: the library drawing exactly the same pages on this thread (`plain`: the same text as
 * plain lines, for reference; pages read first,
 * untimed). Prints one JSON line: the time of the run or render (wall and CPU), the process's max RSS (from
 * process.resourceUsage(), the whole process life, workers included) and its RSS just before.
 */
import fs from 'node:fs';
import { openStore } from '../electron/db/open.ts';
import { createContext } from '../electron/domain/context.ts';
import { bareRender, plainRender, previewFirst, readPages, runLetters } from './letters-run.ts';

export interface SideResult {
  side: 'ours' | 'bare' | 'plain';
  /** ours: whether the renderer started inside the timed part (no preview first). */
  cold?: boolean;
  ms: number;
  /** CPU time (user + system) of the whole process over the timed part, worker threads included. */
  cpuMs: number;
  /** Max RSS of the process, MiB (its whole life). */
  maxRssMiB: number;
  /** RSS just before the timed part, MiB. */
  rssBeforeMiB: number;
  file: string;
  bytes: number;
  documents: number;
}

const MiB = 1024 * 1024;

function cpuSince(c0: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1000;
}

async function main(): Promise<void> {
  const [side, a, b, mode] = process.argv.slice(2);
  const cold = mode === 'cold';
  if ((side !== 'ours' && side !== 'bare' && side !== 'plain') || !a || !b)
    throw new Error(
      'usage: letters-side.ts ours <dataDir> <accountId> [cold] | bare|plain <pages.json> <out.pdf>',
    );
  let result: Omit<SideResult, 'maxRssMiB' | 'bytes'>;
  if (side === 'ours') {
    const store = await openStore({ dataDir: a });
    const ctx = createContext(store);
    if (!cold) await previewFirst(ctx, b);
    const rssBeforeMiB = process.memoryUsage.rss() / MiB;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const run = await runLetters(ctx, a, b);
    const ms = performance.now() - t0;
    const cpuMs = cpuSince(c0);
    await store.close();
    result = { side, cold, ms, cpuMs, rssBeforeMiB, file: run.file, documents: run.documents };
  } else {
    const pages = readPages(a);
    const rssBeforeMiB = process.memoryUsage.rss() / MiB;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await (side === 'bare' ? bareRender : plainRender)(pages, b);
    const ms = performance.now() - t0;
    result = { side, ms, cpuMs: cpuSince(c0), rssBeforeMiB, file: b, documents: pages.length };
  }
  const out: SideResult = {
    ...result,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    bytes: fs.statSync(result.file).size,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

await main();
