/**
 * Rendering off the event loop: renders run in a worker thread (letter-worker.ts), from the
 * TypeScript sources through tsx in development and as letter-worker.js beside main.js when
 * built (scripts/build-electron.mjs), as the CSV import's worker does. The worker takes one
 * job at a time by message and is kept warm between jobs. A process runs at most
 * `rendererLimits.workers` of them; a job that finds them all busy waits its turn. A run's
 * chunks go to the worker as it acknowledges them, at most `rendererLimits.chunksInFlight`
 * unacknowledged at a time, so a run of thousands is merged as fast as it is drawn, never
 * queued whole in memory ahead of the drawing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../worker-start.ts';
import { letterRunLimits, mibSetting } from '../run-queue.ts';
import type { LetterPage } from './pages.ts';

export interface RenderJob {
  pages: LetterPage[];
  /** The PDF file to write; null: answer the bytes (a preview). */
  out: string | null;
  perDonorDir: string | null;
  title: string;
}

/** What the worker is sent: a preview at once, or a run's file in chunks (open, pages…, close). */
export type WorkerRequest =
  | { type: 'bytes'; job: RenderJob }
  | { type: 'open'; out: string; perDonorDir: string | null; title: string }
  | { type: 'pages'; pages: LetterPage[] }
  | { type: 'close' };

export type RenderMessage =
  | { type: 'progress'; rendered: number }
  /** A chunk of pages drawn: the sender may send another. */
  | { type: 'ack' }
  /** The job ended: a preview's bytes, or a file's pages. */
  | { type: 'done'; bytes: Uint8Array | null; pages?: number }
  | { type: 'failed'; error: string };

function spawnWorker(): Worker {
  // The worker's young generation (V8's nursery) is capped below V8's 48 MiB: drawing letters
  // makes short-lived objects fast, and a nursery let grow to 48 MiB is held at the run's peak.
  // Its old generation is bounded by what one part's document keeps (rendererHeapMiB): left
  // unbounded, V8 let it grow to 100 MiB for a part of 15,000 letters whose live data is a fifth
  // of that.
  const options = {
    resourceLimits: {
      maxYoungGenerationSizeMb: rendererLimits.youngGenerationMiB,
      maxOldGenerationSizeMb:
        rendererLimits.oldGenerationMiB ?? rendererHeapMiB(letterRunLimits.lettersPerPart),
    },
  };
  const w = startModuleWorker(import.meta.url, 'letter-worker', options);
  // A worker that fails or ends while it waits warm is forgotten, never handed a job.
  const forget = () => {
    if (idle === w) idle = null;
  };
  w.on('error', forget);
  w.on('exit', forget);
  return w;
}

/**
 * How many renderers a process runs at most, how many chunks a run sends ahead of the drawing,
 * each renderer's young generation (V8's `maxYoungGenerationSizeMb`; V8's own is 48), and its
 * old generation (`maxOldGenerationSizeMb`; null: rendererHeapMiB of the run's part size).
 */
export const rendererLimits: {
  workers: number;
  chunksInFlight: number;
  youngGenerationMiB: number;
  oldGenerationMiB: number | null;
} = {
  workers: 2,
  chunksInFlight: 3,
  youngGenerationMiB: 16,
  // GIFTDESK_LETTER_RENDERER_MIB (a whole number from 32) sets it for the process.
  oldGenerationMiB: mibSetting(process.env.GIFTDESK_LETTER_RENDERER_MIB, 32),
};

/**
 * A renderer's old generation for parts of `letters` letters: 30 MiB for the font, pdfkit and
 * a chunk's drawing, and what a document keeps for each page until it ends (about 1.2 KiB a
 * letter, parts.ts): 48 MiB for the default 15,000. One letter of 40,000 gifts (932 pages)
 * prints within it; one of 150,000 does not, and its run fails saying to raise
 * GIFTDESK_LETTER_RENDERER_MIB.
 */
export function rendererHeapMiB(letters: number): number {
  return 30 + Math.ceil((Math.max(1, letters) * 1.2) / 1024);
}

/**
 * One renderer kept warm between jobs: starting a worker (its module graph, pdfkit, the
 * font) costs more than drawing a few hundred letters, and the Letters screen renders a
 * preview before every run. It is unref'd while idle (it never keeps a process alive) and
 * ends after IDLE_MS without work, giving its memory back. A job that finds it busy (a preview
 * while a run prints) gets a worker of its own while fewer than `rendererLimits.workers` are
 * busy, else waits for one to be given back (first come, first served).
 */
const IDLE_MS = 120_000;
let idle: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
/** Workers doing a job, and the jobs waiting for one (each is handed a worker, already counted busy). */
let busy = 0;
const waiting: ((w: Worker) => void)[] = [];
let peakWorkers = 0;

function counted(): void {
  peakWorkers = Math.max(peakWorkers, busy + (idle ? 1 : 0));
}

/** What the renderers are doing: busy now, jobs waiting, and the most alive at once so far. */
export function letterRendererStats(): { busy: number; waiting: number; peakWorkers: number } {
  return { busy, waiting: waiting.length, peakWorkers };
}

function take(): Promise<Worker> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (!idle && busy >= rendererLimits.workers) return new Promise((resolve) => waiting.push(resolve));
  const w = idle ?? spawnWorker();
  idle = null;
  busy += 1;
  counted();
  w.ref();
  return Promise.resolve(w);
}

/** A job's worker back: to the next job waiting, else kept warm; `ok` false: it is ended. */
function giveBack(w: Worker, ok = true): void {
  const next = waiting.shift();
  if (next) {
    const handed = ok ? w : spawnWorker();
    if (!ok) void w.terminate();
    handed.ref();
    next(handed);
    return;
  }
  busy -= 1;
  if (!ok || idle) {
    void w.terminate();
    return;
  }
  idle = w;
  w.unref();
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (idle === w) idle = null;
    void w.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

/**
 * Starts the renderer now, if none is warm and the limit allows, so that it loads while the
 * caller does other work (a run selects its gifts meanwhile). Cheap when one is warm.
 */
export function warmLetterRenderer(): void {
  if (idle || busy >= rendererLimits.workers) return;
  busy += 1;
  giveBack(spawnWorker());
  counted();
}

/** What a job's sender is given: `post` a request, and `room` to wait until a chunk may be sent (false: the job ended). */
interface Sender {
  post: (m: WorkerRequest) => void;
  room: () => Promise<boolean>;
}

/**
 * One job on a worker: `send` posts its requests (and may fail, ending the job); resolves
 * with the worker's 'done'.
 */
async function run(
  send: (s: Sender) => Promise<void>,
  onProgress?: (rendered: number) => void,
  /** End the worker when the job is done, rather than keep it warm: all its memory is given back. */
  endWorker = false,
): Promise<{ bytes: Uint8Array | null; pages: number; chunksPeak: number }> {
  const worker = await take();
  return new Promise((resolve, reject) => {
    let settled = false;
    let inFlight = 0;
    let chunksPeak = 0;
    let wake: (() => void) | null = null;
    const finish = (ok: boolean) => {
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      wake?.();
      giveBack(worker, ok && !endWorker);
    };
    const onMessage = (m: RenderMessage) => {
      if (m.type === 'progress') onProgress?.(m.rendered);
      else if (m.type === 'ack') {
        inFlight -= 1;
        wake?.();
      } else if (m.type === 'done') {
        finish(true);
        const result = { bytes: m.bytes, pages: m.pages ?? 0, chunksPeak };
        // An ended worker is gone before the job answers: the next one never overlaps it.
        if (endWorker)
          void worker.terminate().then(
            () => resolve(result),
            () => resolve(result),
          );
        else resolve(result);
      } else {
        finish(false);
        reject(new Error(m.error));
      }
    };
    const onError = (err: Error) => {
      if (settled) return;
      finish(false);
      reject(err);
    };
    const onExit = (code: number) => {
      if (settled) return;
      finish(false);
      reject(new Error(`the letter renderer stopped (exit code ${code})`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const room = async () => {
      while (!settled && inFlight >= rendererLimits.chunksInFlight)
        await new Promise<void>((r) => (wake = r));
      wake = null;
      return !settled;
    };
    const post = (m: WorkerRequest) => {
      if (settled) return;
      if (m.type === 'pages') chunksPeak = Math.max(chunksPeak, (inFlight += 1));
      worker.postMessage(m);
    };
    send({ post, room }).catch((err: unknown) => {
      if (settled) return;
      finish(false);
      reject(err instanceof Error ? err : new Error(String(err)));
    });
  });
}

export interface RenderPdfOptions {
  /** Also write each letter alone (`page.fileName`) in this folder. */
  perDonorDir?: string | null;
  title?: string;
  /**
   * End the worker once the file is written instead of keeping it warm: its heap, which grew
   * with the document's pages, is given back at once (a run in parts; the next part starts a
   * fresh worker).
   */
  endWorker?: boolean;
}

/**
 * Renders the letters into one PDF at `out`, in a worker thread; `onProgress` hears how many
 * are drawn. `pages` may be a list or chunks arriving as they are made: the worker draws a
 * chunk while the next is prepared, and the next is asked for only when the worker has room
 * (at most `rendererLimits.chunksInFlight` sent and not yet drawn). The file is written under
 * a temporary name and renamed when complete, so a reader never sees half a PDF. Answers the
 * pages written and the most chunks that were sent and not yet drawn at once.
 */
export async function renderPdf(
  pages: LetterPage[] | AsyncIterable<LetterPage[]>,
  out: string,
  onProgress?: (rendered: number) => void,
  opts: RenderPdfOptions = {},
): Promise<{ pages: number; chunksPeak: number }> {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const part = `${out}.part`;
  const chunks = Array.isArray(pages) ? [pages] : pages;
  try {
    const { pages: written, chunksPeak } = await run(
      async ({ post, room }) => {
        post({
          type: 'open',
          out: part,
          perDonorDir: opts.perDonorDir ?? null,
          title: opts.title ?? 'Letters',
        });
        for await (const chunk of chunks) {
          if (!(await room())) return;
          post({ type: 'pages', pages: chunk });
        }
        post({ type: 'close' });
      },
      onProgress,
      opts.endWorker === true,
    );
    fs.renameSync(part, out);
    return { pages: written, chunksPeak };
  } finally {
    fs.rmSync(part, { force: true });
  }
}

/** The letters as PDF bytes, rendered in a worker thread (a preview). */
export async function renderPdfBytes(pages: LetterPage[], title = 'Letter'): Promise<Buffer> {
  const { bytes } = await run(async ({ post }) =>
    post({ type: 'bytes', job: { pages, out: null, perDonorDir: null, title } }),
  );
  return Buffer.from(bytes!);
}
