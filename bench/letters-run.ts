/**
 * The one place part `letters` (bench/letters.ts) touches the letters feature
 * (electron/letters): the account's letter settings, the bench's thank-you run (every donor's
 * gifts of the bench period, one PDF) through GiftDesk's run path, the pages that run prints
 * as plain text, and the library's bare render of those pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DomainContext } from '../electron/domain/index.ts';
import type { LetterPage } from '../electron/letters/index.ts';
import {
  letterPageText,
  loadLetterSettings,
  mergeLetter,
  previewFirstLetter,
  renderBarePdf,
  renderLettersToFile,
  runFileName,
  saveLetterSettings,
  selectLetters,
  startLetterRun,
  templateOf,
  waitForRun,
} from '../electron/letters/index.ts';
import { LETTER_PERIOD } from './letters-data.ts';

/** What the run asks for: a thank-you letter per donor for the gifts of the period. */
export const BENCH_CHOICE = { kind: 'thank-you', ...LETTER_PERIOD } as const;

/** A charity's letterhead and signer, so every letter carries them as a real one does. */
export async function letterSettings(ctx: DomainContext, accountId: string): Promise<void> {
  await saveLetterSettings(ctx, {
    accountId,
    orgKind: 'charity',
    organizationName: 'Riverside Library Friends',
    organizationAddress: '12 Harbour Road\nSpringfield, IL 62701',
    signerName: 'Małgorzata Đỗ-Nguyễn',
    signerTitle: 'Treasurer',
  });
}

export interface RunOutcome {
  file: string;
  documents: number;
  gifts: number;
}

/**
 * What the Letters screen does before every run: the preview of the first letter, which
 * leaves the renderer warm (its code and font loaded), as the bare render's process has
 * pdfkit loaded before its clock starts.
 */
export async function previewFirst(ctx: DomainContext, accountId: string): Promise<void> {
  await previewFirstLetter(ctx, accountId, BENCH_CHOICE);
}

/** A run through GiftDesk's run path (startLetterRun, then its worker), to its PDF written in the data folder. */
export async function runLetters(
  ctx: DomainContext,
  dataDir: string,
  accountId: string,
): Promise<RunOutcome> {
  const started = await startLetterRun(ctx, dataDir, { accountId, ...BENCH_CHOICE });
  const run = await waitForRun(ctx, accountId, started.id);
  if (run.status !== 'done') throw new Error(`the bench's letter run ended ${run.status}: ${run.error}`);
  return { file: path.join(dataDir, runFileName(run.id)), documents: run.documents, gifts: run.gifts };
}

/** The pages the run prints, merged (the bare render's input), as JSON in `file`. */
export async function writePages(ctx: DomainContext, accountId: string, file: string): Promise<number> {
  const today = ctx.now();
  const set = await selectLetters(ctx.store.db, accountId, BENCH_CHOICE, today);
  const settings = await loadLetterSettings(ctx.store.db, accountId);
  const template = templateOf(settings, set.kind);
  const pages = set.documents.map((d, i) => mergeLetter(template, d, { settings, set, today }, i));
  fs.writeFileSync(file, JSON.stringify(pages));
  return pages.length;
}

/** Reads what writePages wrote (untimed). */
export function readPages(file: string): LetterPage[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as LetterPage[];
}

/**
 * The library's bare render of the same pages: pdfkit drawing exactly the run's pages (same
 * blocks, same font, the same PDF) on this thread, to `out` — no database, no merge, no
 * worker, no bookkeeping: what is left of a run when GiftDesk's part is taken away.
 */
export function bareRender(pages: LetterPage[], out: string): Promise<void> {
  return renderLettersToFile(pages, out);
}

/** For reference: the same text as plain lines, one text call per page (no columns, no bold). */
export function plainRender(pages: LetterPage[], out: string): Promise<void> {
  return renderBarePdf(pages.map(letterPageText), out);
}
