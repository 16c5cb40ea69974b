/**
 * Rendering off the event loop: renders run in a worker thread (letter-worker.ts), from the
 * TypeScript sources through tsx in development and as letter-worker.js beside main.js when
 * built (scripts/build-electron.mjs), as the CSV import's worker does. The worker takes one
 * job at a time by message and is kept warm between jobs.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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
  | { type: 'done'; bytes: Uint8Array | null }
  | { type: 'failed'; error: string };

/** tsx's ESM loader API: a worker started from TypeScript sources registers it first. */
function tsxEsmApi(from: string): string {
  const pkgFile = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

function spawnWorker(): Worker {
  const here = import.meta.url;
  let w: Worker;
  if (!here.endsWith('.ts')) w = new Worker(new URL('./letter-worker.js', here));
  else {
    const entry = new URL('./letter-worker.ts', here).href;
    const boot = `import { register } from ${JSON.stringify(tsxEsmApi(here))}; register(); await import(${JSON.stringify(entry)});`;
    w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`));
  }
  // A worker that fails or ends while it waits warm is forgotten, never handed a job.
  const forget = () => {
    if (idle === w) idle = null;
  };
  w.on('error', forget);
  w.on('exit', forget);
  return w;
}

/**
 * One renderer kept warm between jobs: starting a worker (its module graph, pdfkit, the
 * font) costs more than drawing a few hundred letters, and the Letters screen renders a
 * preview before every run. It is unref'd while idle (it never keeps a process alive) and
 * ends after IDLE_MS without work, giving its memory back. A job that finds it busy (a preview
 * while a run prints) gets a worker of its own, so a preview never waits for a run.
 */
const IDLE_MS = 120_000;
let idle: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;

function take(): Worker {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const w = idle ?? spawnWorker();
  idle = null;
  w.ref();
  return w;
}

function giveBack(w: Worker): void {
  if (idle) {
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
 * Starts the renderer now, if none is warm, so that it loads while the caller does other
 * work (a run selects its gifts meanwhile). Cheap when one is warm.
 */
export function warmLetterRenderer(): void {
  if (!idle) giveBack(spawnWorker());
}

/**
 * One job on a worker: `send` posts its requests (and may fail, ending the job); resolves
 * with the worker's 'done'.
 */
function run(
  send: (post: (m: WorkerRequest) => void) => Promise<void>,
  onProgress?: (rendered: number) => void,
): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const worker = take();
    let settled = false;
    const finish = (ok: boolean) => {
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (ok) giveBack(worker);
      else void worker.terminate();
    };
    const onMessage = (m: RenderMessage) => {
      if (m.type === 'progress') onProgress?.(m.rendered);
      else if (m.type === 'done') {
        finish(true);
        resolve(m.bytes);
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
    send((m) => {
      if (!settled) worker.postMessage(m);
    }).catch((err: unknown) => {
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
}

/**
 * Renders the letters into one PDF at `out`, in a worker thread; `onProgress` hears how many
 * are drawn. `pages` may be a list or chunks arriving as they are made: the worker draws a
 * chunk while the next is prepared. The file is written under a temporary name and renamed
 * when complete, so a reader never sees half a PDF.
 */
export async function renderPdf(
  pages: LetterPage[] | AsyncIterable<LetterPage[]>,
  out: string,
  onProgress?: (rendered: number) => void,
  opts: RenderPdfOptions = {},
): Promise<void> {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const part = `${out}.part`;
  const chunks = Array.isArray(pages) ? [pages] : pages;
  try {
    await run(async (post) => {
      post({
        type: 'open',
        out: part,
        perDonorDir: opts.perDonorDir ?? null,
        title: opts.title ?? 'Letters',
      });
      for await (const chunk of chunks) post({ type: 'pages', pages: chunk });
      post({ type: 'close' });
    }, onProgress);
    fs.renameSync(part, out);
  } finally {
    fs.rmSync(part, { force: true });
  }
}

/** The letters as PDF bytes, rendered in a worker thread (a preview). */
export async function renderPdfBytes(pages: LetterPage[], title = 'Letter'): Promise<Buffer> {
  const bytes = await run(async (post) =>
    post({ type: 'bytes', job: { pages, out: null, perDonorDir: null, title } }),
  );
  return Buffer.from(bytes!);
}
