/**
 * Rendering off the event loop: each render runs in a worker thread (letter-worker.ts), from
 * the TypeScript sources through tsx in development and as letter-worker.js beside main.js
 * when built (scripts/build-electron.mjs), as the CSV import's worker does.
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

function startWorker(job: RenderJob): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./letter-worker.js', here), { workerData: job });
  const entry = new URL('./letter-worker.ts', here).href;
  const boot = `import { register } from ${JSON.stringify(tsxEsmApi(here))}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData: job });
}

function run(job: RenderJob, onProgress?: (rendered: number) => void): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = startWorker(job);
    worker.on('message', (m: RenderMessage) => {
      if (m.type === 'progress') onProgress?.(m.rendered);
      else if (m.type === 'done') {
        settled = true;
        resolve(m.bytes);
      } else {
        settled = true;
        reject(new Error(m.error));
      }
    });
    worker.on('error', (err) => {
      if (!settled) reject(err);
      settled = true;
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the letter renderer stopped (exit code ${code})`));
      settled = true;
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
 * are drawn. The file is written under a temporary name and renamed when complete, so a
 * reader never sees half a PDF.
 */
export async function renderPdf(
  pages: LetterPage[],
  out: string,
  onProgress?: (rendered: number) => void,
  opts: RenderPdfOptions = {},
): Promise<void> {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const part = `${out}.part`;
  try {
    await run(
      { pages, out: part, perDonorDir: opts.perDonorDir ?? null, title: opts.title ?? 'Letters' },
      onProgress,
    );
    fs.renameSync(part, out);
  } finally {
    fs.rmSync(part, { force: true });
  }
}

/** The letters as PDF bytes, rendered in a worker thread (a preview). */
export async function renderPdfBytes(pages: LetterPage[], title = 'Letter'): Promise<Buffer> {
  const bytes = await run({ pages, out: null, perDonorDir: null, title });
  return Buffer.from(bytes!);
}
