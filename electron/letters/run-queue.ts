/**
 * What bounds a process's print runs: how many render at once (the rest wait in a queue, first
 * come, first served, reported as queued), how many per-donor files a run may write, and a
 * failed run's message as stored, with no path of the machine in it.
 */
import path from 'node:path';

/**
 * Runs rendering at once in a process (each holds a renderer; rendererLimits in
 * render/thread.ts caps the workers, a preview's included), the most per-donor files one
 * run writes (a run asking for more is refused, 400 naming `perDonor`, not split), and the
 * most letters in one PDF: a run of more is printed in parts of this many (the last holds the
 * rest), each a complete PDF, since a PDF document keeps some state for every page until it
 * ends (about 1.2 KiB a letter in the renderer: 120 MiB at 100,000 letters), and how many
 * donors of a run's letter order are read at once (paged.ts: donorOrderPages; each page is a
 * pass over the run's donors).
 */
export const letterRunLimits = {
  runsAtOnce: 1,
  perDonorFiles: 5000,
  // GIFTDESK_LETTERS_PER_PART (a whole number from 1) sets it for the process.
  lettersPerPart: lettersPerPartOf(process.env.GIFTDESK_LETTERS_PER_PART),
  orderPage: 10_000,
  /**
   * The old generation of the worker that reads and merges a run's letters (pages-thread.ts):
   * what reading a run may hold at once. Its live data is a page of the order and a page of
   * donors, a few MiB at any size of run; the rest is room for V8 to collect in.
   */
  // GIFTDESK_LETTER_READER_MIB (a whole number from 16) sets it for the process.
  readerHeapMiB: mibSetting(process.env.GIFTDESK_LETTER_READER_MIB, 16) ?? 32,
  /** That worker's SQLite page cache (the server's connection keeps its own 64 MiB). */
  readerCacheMiB: 16,
};

/** A memory setting in whole MiB from the environment: null when absent, malformed or under `least`. */
export function mibSetting(setting: string | undefined, least: number): number | null {
  return setting !== undefined && /^\d{2,5}$/.test(setting) && Number(setting) >= least
    ? Number(setting)
    : null;
}

function lettersPerPartOf(setting: string | undefined): number {
  return setting !== undefined && /^[1-9]\d{0,8}$/.test(setting) ? Number(setting) : 15_000;
}

let rendering = 0;
const waiting: (() => void)[] = [];
/** Runs waiting for their turn, by id. */
const queued = new Set<string>();

/** True while the run waits for its turn to render in this process. */
export function isQueued(runId: string): boolean {
  return queued.has(runId);
}

/** Runs `work` when the run's turn comes; `onStart` hears when it leaves the queue. */
export async function inTurn<T>(runId: string, work: () => Promise<T>): Promise<T> {
  if (rendering < letterRunLimits.runsAtOnce) rendering += 1;
  else {
    queued.add(runId);
    // The slot is handed over by the run that ends (the count stays), never taken twice.
    await new Promise<void>((resolve) => waiting.push(resolve));
    queued.delete(runId);
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else rendering -= 1;
  }
}

const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'GiftDesk may not write to its letters folder',
  EPERM: 'GiftDesk may not write to its letters folder',
  EROFS: 'the letters folder is on a read-only disk',
  ENOTDIR: 'the letters folder is not a folder',
  EEXIST: 'the letters folder is not a folder',
  ENOENT: 'a file or folder of the letters is missing',
  EMFILE: 'too many files are open',
  ERR_WORKER_OUT_OF_MEMORY:
    'it needed more memory than a run may use (a letter of tens of thousands of gifts, or a setting too low: GIFTDESK_LETTER_RENDERER_MIB and GIFTDESK_LETTER_READER_MIB raise what drawing and reading the letters may hold)',
};

/**
 * A failure's message as a run stores and shows it: a file system error by its cause, any
 * other with every path in it (under `dataDir` or absolute) cut to its last name.
 */
export function runErrorText(err: unknown, dataDir: string): string {
  const message = err instanceof Error ? err.message : String(err);
  // The worker's errors arrive as text: "ENOSPC: no space left on device, write".
  const code = (err as { code?: unknown } | null)?.code ?? /^([A-Z]{4,8}):/.exec(message)?.[1];
  const cause =
    typeof code === 'string' && CAUSES[code] !== undefined
      ? CAUSES[code]
      : message
          .split(dataDir)
          .join('')
          .replace(
            /(?:[A-Za-z]:)?[\\/][^\s'",:;]*/g,
            (p) => path.basename(p.replace(/\\/g, '/')) || 'a file',
          );
  return `The letters could not be printed: ${cause}`;
}
