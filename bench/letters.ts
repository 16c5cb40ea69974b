/**
 * Part `letters` of `npm run bench` (BENCH_PARTS=letters): printing 1,000 thank-you letters.
 *
 * Data: a real SQLite data folder with 1,000 donors (the names staff really meet: Latin
 * Extended, Vietnamese, namesakes, twins) and their gifts (bench/letters-data.ts).
 *
 * Figure 1: the 1,000 letters in one PDF through GiftDesk's run path (the gifts selected from
 * the data folder, merged into the account's template, rendered in the run's worker, the file
 * written) — time and peak memory — against the same library's bare render of the same pages
 * (pdfkit drawing exactly the run's merged pages, same font, on the thread that calls it: no
 * database, merge, worker or bookkeeping), and for reference the same text as plain lines.
 * The run side previews the first letter first (untimed), as the Letters screen does; a cold
 * run (no preview) is measured too and reported beside it. Each side runs in a process of its own
 * (bench/letters-side.ts) so its max RSS is its own, alternating for BENCH_LETTERS_ROUNDS
 * (default 3) rounds; the medians are compared. Goal: bare time / our time ≥ 0.8. The last
 * round's two PDFs are read back with pdf.js and compared page by page (the same text).
 *
 * Figure 2: gift entry's Enter → row p95 while runs print, in real Chromium, against the same
 * without a run (bench/renderer-letters.ts, a child process). Goal: under 50 ms.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../electron/db/open.ts';
import { createAccount } from '../electron/domain/accounts/accounts.ts';
import { createContext } from '../electron/domain/context.ts';
import { exec, fmt, log } from './core-common.ts';
import { LETTER_PERIOD, seedLetterData, type LetterData } from './letters-data.ts';
import { letterSettings, writePages } from './letters-run.ts';
import type { SideResult } from './letters-side.ts';
import type { UiRow } from './renderer-common.ts';

const ROUNDS = Number(process.env.BENCH_LETTERS_ROUNDS ?? 3);

export interface LettersBenchResult {
  rows: UiRow[];
  notes: string[];
  /** False when the two PDFs do not carry the same text. */
  ok: boolean;
}

/** A child process's last stdout line, parsed; its stderr goes to ours. */
async function child<T>(args: string[]): Promise<T> {
  const c = spawn('node', ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  c.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const [code] = (await once(c, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The data folder: an account, the donors and gifts, and the pages the run prints as JSON. */
async function dataFolder(dir: string): Promise<{ data: LetterData; pagesFile: string; pages: number }> {
  const store = await openStore({ dataDir: dir });
  try {
    const ctx = createContext(store);
    const { id } = await createAccount(ctx, 'Riverside Library Friends');
    await letterSettings(ctx, id);
    const data = await seedLetterData(ctx, id);
    const pagesFile = path.join(dir, '..', 'letters-pages.json');
    const pages = await writePages(ctx, id, pagesFile);
    return { data, pagesFile, pages };
  } finally {
    await store.close();
  }
}

/**
 * The two PDFs read back with pdf.js: the same text, whitespace aside, in the same order.
 */
async function sameText(ours: string, bare: string): Promise<TextCheck> {
  // In a process of its own: pdf.js would replace this process's JSON (bench/pdf-pages.ts).
  const { stdout } = await exec('node', ['--import', 'tsx', 'bench/pdf-pages.ts', ours, bare], {
    maxBuffer: 1 << 30,
  });
  const [a, b] = JSON.parse(stdout) as [string[][], string[][]];
  const squash = (pages: string[][]) => pages.map((lines) => lines.join('').replace(/\s+/g, ''));
  const [x, y] = [squash(a), squash(b)];
  const whole = x.join('') === y.join('');
  const differ = x.findIndex((t, i) => t !== y[i]);
  return {
    same: whole,
    pages: [a.length, b.length],
    detail: whole ? '' : `first difference on page ${differ + 1}`,
  };
}

interface TextCheck {
  same: boolean;
  pages: [number, number];
  detail: string;
}

function figure1(
  ours: SideResult[],
  bare: SideResult[],
  check: TextCheck,
  cold: SideResult[],
  plain: SideResult[],
) {
  const o = {
    ms: median(ours.map((r) => r.ms)),
    cpu: median(ours.map((r) => r.cpuMs)),
    rss: median(ours.map((r) => r.maxRssMiB)),
  };
  const b = {
    ms: median(bare.map((r) => r.ms)),
    cpu: median(bare.map((r) => r.cpuMs)),
    rss: median(bare.map((r) => r.maxRssMiB)),
  };
  const oBefore = median(ours.map((r) => r.rssBeforeMiB));
  const bBefore = median(bare.map((r) => r.rssBeforeMiB));
  const ratio = b.ms / o.ms;
  const list = (xs: SideResult[]) =>
    xs.map((r) => `${fmt(r.ms / 1000, 2)} (CPU ${fmt(r.cpuMs / 1000, 2)})`).join(', ');
  const row: UiRow = {
    name: `${fmt(ours[0]!.documents, 0)} thank-you letters in one PDF through the run path: time, peak memory (max RSS of its process)`,
    figure: `${fmt(o.ms / 1000, 2)} s, ${fmt(o.rss, 0)} MiB`,
    baseline: `the library's bare render of the same pages, same font: ${fmt(b.ms / 1000, 2)} s, ${fmt(b.rss, 0)} MiB`,
    ratio: `${ratio.toFixed(2)} (time, bare / ours); memory ${(o.rss / b.rss).toFixed(2)}× the bare's`,
    goal: 'time ratio ≥ 0.8',
    met: ratio >= 0.8 ? 'yes' : 'no',
  };
  const coldMs = median(cold.map((r) => r.ms));
  const plainMs = median(plain.map((r) => r.ms));
  const note = `Letters, time and memory: medians of ${ROUNDS} alternating rounds, each side in a process of its own (bench/letters-side.ts). The run path's times ${list(ours)} s (the data folder's store opened and the first letter previewed first, untimed, as the Letters screen previews before every run: the renderer is warm, as the bare render's process has pdfkit loaded before its clock starts; from the call to the run's PDF written). Cold, the renderer started inside the timed part (a first \`giftdesk letters\` in a fresh process, from the TypeScript sources through tsx): ${list(cold)} s, a ratio of ${(b.ms / coldMs).toFixed(2)}, not the goal's figure; the bare render's ${list(bare)} s (pdfkit drawing exactly the run's pages — the same blocks, columns and fonts, the same PDF — on the calling thread, with no database, merge, worker or bookkeeping; its pages read from JSON first, untimed; from the call to its PDF written). For reference, the same text as plain lines, one text call per page (no columns, no bold): ${list(plain)} s, against which the run's ratio is ${(plainMs / o.ms).toFixed(2)}. CPU time (user + system of the whole process over the timed part, worker threads included; it moves less than wall time when the machine is shared): median ${fmt(o.cpu / 1000, 2)} s for the run path, ${fmt(b.cpu / 1000, 2)} s for the bare render, a ratio of ${(b.cpu / o.cpu).toFixed(2)}. Max RSS is the process's whole life (process.resourceUsage(), worker threads included): RSS just before the timed part was ${fmt(oBefore, 0)} MiB for the run path's process and ${fmt(bBefore, 0)} MiB for the bare render's, so the growth was about ${fmt(o.rss - oBefore, 0)} vs ${fmt(b.rss - bBefore, 0)} MiB. PDFs: ${fmt(ours.at(-1)!.bytes / 2 ** 20, 2)} MiB vs ${fmt(bare.at(-1)!.bytes / 2 ** 20, 2)} MiB; ${check.pages[0]} and ${check.pages[1]} pages, read back with pdf.js: ${check.same ? 'the same text in the same order' : `NOT the same text (${check.detail})`}.`;
  return { row, note };
}

export async function benchLetters(): Promise<LettersBenchResult> {
  const work = path.resolve('bench/.work', `letters-${process.pid}`);
  const dir = path.join(work, 'data');
  fs.mkdirSync(dir, { recursive: true });
  try {
    log('letters: the data folder (1,000 donors and their gifts)');
    const { data, pagesFile, pages } = await dataFolder(dir);
    log(`letters: ${data.donors} donors, ${data.gifts} gifts, ${pages} pages to print`);
    const ours: SideResult[] = [];
    const bare: SideResult[] = [];
    const cold: SideResult[] = [];
    const plain: SideResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const bareOut = path.join(work, `bare-${r}.pdf`);
      const order =
        r % 2 === 0
          ? (['bare', 'ours', 'cold', 'plain'] as const)
          : (['plain', 'cold', 'ours', 'bare'] as const);
      for (const s of order) {
        const res =
          s === 'bare' || s === 'plain'
            ? await child<SideResult>([
                'bench/letters-side.ts',
                s,
                pagesFile,
                s === 'bare' ? bareOut : `${bareOut}.plain.pdf`,
              ])
            : await child<SideResult>([
                'bench/letters-side.ts',
                'ours',
                dir,
                data.accountId,
                ...(s === 'cold' ? ['cold'] : []),
              ]);
        (s === 'ours' ? ours : s === 'cold' ? cold : s === 'plain' ? plain : bare).push(res);
        log(
          `letters round ${r + 1}/${ROUNDS} ${s}: ${fmt(res.ms / 1000, 2)} s, max RSS ${fmt(res.maxRssMiB, 0)} MiB`,
        );
      }
    }
    const check = await sameText(ours.at(-1)!.file, bare.at(-1)!.file);
    const f1 = figure1(ours, bare, check, cold, plain);
    // BENCH_LETTERS_ONLY=print: the first figure alone (while developing).
    let f2: { rows: UiRow[]; notes: string[] } = {
      rows: [],
      notes: ['Gift entry while a run prints: not run (BENCH_LETTERS_ONLY=print).'],
    };
    if (process.env.BENCH_LETTERS_ONLY !== 'print') {
      log('letters: gift entry while a run prints (bench/renderer-letters.ts)');
      f2 = await child<{ rows: UiRow[]; notes: string[] }>(['bench/renderer-letters.ts']);
    }
    return {
      rows: [f1.row, ...f2.rows],
      notes: [
        `Data: one account, ${fmt(data.donors, 0)} donors (${data.sample.join(', ')}, more Vietnamese full names, three Robert Browns at different addresses, three pairs of twins sharing name and address, the rest drawn from the demo's names), ${fmt(data.gifts, 0)} completed gifts between ${LETTER_PERIOD.from} and ${LETTER_PERIOD.to} over two campaigns (one anonymous), $${fmt(data.totalCents / 100, 2)} in all, imported through the bulk import into a real SQLite data folder. The run: a thank-you letter per donor for the gifts of that period.`,
        f1.note,
        ...f2.notes,
      ],
      ok: check.same,
    };
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The section of RESULTS.md. */
export function lettersMarkdown(r: LettersBenchResult | null, why = ''): string {
  if (!r) return `## Letters\n\n${why}\n`;
  return [
    '## Letters',
    '',
    `${os.cpus().length} cores; load average (1, 5, 15 min) at the end of the part ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}.`,
    '',
    '| benchmark | figure | baseline (same run) | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...r.rows.map((x) => `| ${x.name} | ${x.figure} | ${x.baseline} | ${x.ratio} | ${x.goal} | ${x.met} |`),
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
