/**
 * A run's PDF files. A run of more letters than `letterRunLimits.lettersPerPart` is printed in
 * parts, each a complete PDF of consecutive letters (`letters/<runId>-part-<n>.pdf`; a run of
 * fewer is its one `letters/<runId>.pdf`, as before parts): the renderer ends one document
 * before it starts the next, so what a PDF document keeps for every page until it ends is given
 * back instead of growing with the run (the worker is ended after each part, so its heap goes
 * too; what else a large run holds is measured in bench/RESULTS.md). The run's row lists its parts
 * (letter_runs.parts: the files, the letters and the pages of each).
 */
import type { LetterRunPart } from '#shared/schemas/letters.ts';
import type { Selectable } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import type { LetterRunsTable } from '../db/schema/letters.ts';
import { DomainError } from '../domain/index.ts';
import type { LetterPage } from './render/pages.ts';
import { renderPdf } from './render/thread.ts';
import { letterRunLimits } from './run-queue.ts';

type RunRow = Selectable<LetterRunsTable>;

/** The run's PDF, relative to the data folder. */
export function runFileName(runId: string): string {
  return path.join('letters', `${runId}.pdf`);
}
/** Part `part` (from 1) of a run printed in several, relative to the data folder. */
export function runPartFileName(runId: string, part: number): string {
  return path.join('letters', `${runId}-part-${part}.pdf`);
}
/** The folder of a run's per-donor files, relative to the data folder. */
export function runPerDonorDir(runId: string): string {
  return path.join('letters', runId);
}

/** One PDF file of a run as its row keeps it (letter_runs.parts, JSON). */
export interface StoredRunPart {
  /** Relative to the data folder. */
  file: string;
  firstLetter: number;
  lastLetter: number;
  pages: number;
}

/** The run's files in order: its parts as recorded, else (a run from before parts) its one PDF. */
export function storedParts(r: Pick<RunRow, 'file' | 'parts' | 'rendered'>): StoredRunPart[] {
  if (!r.file) return [];
  if (r.parts) return JSON.parse(r.parts) as StoredRunPart[];
  return [{ file: r.file, firstLetter: 1, lastLetter: Number(r.rendered), pages: -1 }];
}

export function partsOf(r: Pick<RunRow, 'id' | 'file' | 'parts' | 'rendered'>): LetterRunPart[] {
  return storedParts(r).map((p, i) => ({
    part: i + 1,
    firstLetter: p.firstLetter,
    lastLetter: p.lastLetter,
    pages: p.pages < 0 ? null : p.pages,
    pdfUrl: `/api/v1/letters/runs/${r.id}/parts/${i + 1}/pdf`,
  }));
}

/**
 * The file of part `part` (from 1) of a run's parts, relative to the data folder; null when the
 * run has none. Without `part`, the run's one PDF: 409 `run_in_parts` for a run in several.
 * 404 `no_such_part` beyond the last.
 */
export function partFile(parts: StoredRunPart[], part?: number): string | null {
  if (parts.length === 0) return null;
  if (part === undefined) {
    if (parts.length > 1)
      throw new DomainError(
        'conflict',
        'run_in_parts',
        `The run is printed in ${parts.length} parts: fetch each from its part's pdfUrl (parts/1/pdf … parts/${parts.length}/pdf)`,
        [{ field: 'id', issue: `has ${parts.length} parts` }],
      );
    return parts[0]!.file;
  }
  const one = parts[part - 1];
  if (!one)
    throw new DomainError(
      'not_found',
      'no_such_part',
      `The run has ${parts.length === 1 ? 'one part' : `${parts.length} parts`}: there is no part ${part}`,
      [{ field: 'part', issue: `is not 1 to ${parts.length}` }],
    );
  return one.file;
}

/**
 * The run's chunks cut into parts of `size` letters (the last may hold fewer): `next()` gives
 * the next part's chunks, to be read to their end before the next part is asked for.
 */
function inParts(chunks: AsyncIterable<LetterPage[]>, size: number) {
  const it = chunks[Symbol.asyncIterator]();
  let carry: LetterPage[] = [];
  /** Letters the part last asked for held. */
  let n = 0;
  async function* part(): AsyncGenerator<LetterPage[]> {
    n = 0;
    while (n < size) {
      let chunk = carry;
      carry = [];
      if (chunk.length === 0) {
        const next = await it.next();
        if (next.done) return;
        chunk = next.value;
      }
      if (chunk.length > size - n) {
        carry = chunk.slice(size - n);
        chunk = chunk.slice(0, size - n);
      }
      n += chunk.length;
      yield chunk;
    }
  }
  return { next: part, letters: () => n, close: async () => void (await it.return?.()) };
}

export interface PartsTarget {
  dataDir: string;
  runId: string;
  /** The PDF's title; a part's adds "part n of m". */
  title: string;
  /** Also one PDF per letter, in the run's per-donor folder (every part writes its own letters there). */
  perDonor: boolean;
  /** Hears how many letters of the whole run are drawn. */
  progress: (rendered: number) => void;
}

/**
 * Renders a run's `letters` letters, arriving in chunks, into its parts (one worker job each,
 * on the same warm renderer), and records each part written in `written` as it is: on a
 * failure the caller finds there what to remove.
 */
export async function renderParts(
  pages: AsyncIterable<LetterPage[]>,
  letters: number,
  written: StoredRunPart[],
  to: PartsTarget,
): Promise<void> {
  const size = Math.max(1, Math.floor(letterRunLimits.lettersPerPart));
  const count = Math.max(1, Math.ceil(letters / size));
  const chunks = inParts(pages, size);
  try {
    for (let n = 1; n <= count; n++) {
      const file = count === 1 ? runFileName(to.runId) : runPartFileName(to.runId, n);
      const before = (n - 1) * size;
      const { pages: drawn } = await renderPdf(
        chunks.next(),
        path.join(to.dataDir, file),
        (rendered) => to.progress(before + rendered),
        {
          perDonorDir: to.perDonor ? path.join(to.dataDir, runPerDonorDir(to.runId)) : null,
          title: count === 1 ? to.title : `${to.title}, part ${n} of ${count}`,
          // Each part on a fresh worker: what the last document grew in its heap goes with it.
          endWorker: count > 1,
        },
      );
      const held = chunks.letters();
      // Fewer letters than counted (a donor gone meanwhile): an empty part is not kept.
      if (held === 0 && n > 1) {
        fs.rmSync(path.join(to.dataDir, file), { force: true });
        break;
      }
      written.push({ file, firstLetter: before + 1, lastLetter: before + held, pages: drawn });
    }
  } finally {
    await chunks.close();
  }
}
