/**
 * A print run's letters read and merged on a worker thread of its own (pages-worker.ts), over
 * a reading connection of its own (db/reader.ts), handed to the run a chunk at a time as the
 * run asks: the server's heap holds a chunk or two of a run, never what reading it allocates,
 * and the worker's heap is bounded (`letterRunLimits.readerHeapMiB`). A run too large for it
 * fails with that said, instead of growing the server. A store that offers no reader (or a
 * worker that does not start) has its letters read here, as before.
 */
import type { Worker } from 'node:worker_threads';
import type { ReaderSpec, Store } from '../db/store.ts';
import { startModuleWorker } from '../worker-start.ts';
import { type Merging, donorOrderPages, letterPageChunks } from './paged.ts';
import type { LetterPage } from './render/pages.ts';
import { letterRunLimits } from './run-queue.ts';

export interface PagesJob {
  reader: ReaderSpec;
  accountId: string;
  runId: string;
  merging: Merging;
  orderPage: number;
  cacheMiB: number;
}

export type PagesRequest = { type: 'next' };

export type PagesMessage =
  | { type: 'chunk'; pages: LetterPage[] }
  | { type: 'end' }
  | { type: 'failed'; error: string; code: string | null };

/** The worker's messages, and how it ended, one at a time in order. */
function inbox(worker: Worker): () => Promise<PagesMessage> {
  const queue: PagesMessage[] = [];
  let wake: ((m: PagesMessage) => void) | null = null;
  const put = (m: PagesMessage) => {
    if (!wake) return void queue.push(m);
    const w = wake;
    wake = null;
    w(m);
  };
  worker.on('message', put);
  worker.on('error', (err: Error & { code?: unknown }) =>
    put({ type: 'failed', error: err.message, code: typeof err.code === 'string' ? err.code : null }),
  );
  worker.on('exit', () => put({ type: 'failed', error: 'the letters reader stopped', code: null }));
  return () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((r) => (wake = r)));
}

function start(job: PagesJob): Worker | null {
  try {
    return startModuleWorker(import.meta.url, 'pages-worker', {
      workerData: job,
      resourceLimits: {
        maxOldGenerationSizeMb: letterRunLimits.readerHeapMiB,
        maxYoungGenerationSizeMb: 16,
      },
    });
  } catch (err) {
    process.emitWarning(`the letters reader did not start (${String(err)}); reading on the server thread`);
    return null;
  }
}

/** The run's letters in order, in chunks: read on a worker when the store allows one. */
export async function* runLetterPages(
  store: Store,
  accountId: string,
  runId: string,
  merging: Merging,
): AsyncGenerator<LetterPage[]> {
  const reader = store.readerSpec?.();
  const worker = reader
    ? start({
        reader,
        accountId,
        runId,
        merging,
        orderPage: letterRunLimits.orderPage,
        cacheMiB: letterRunLimits.readerCacheMiB,
      })
    : null;
  if (!worker) {
    yield* letterPageChunks(store.db, accountId, runId, merging, donorOrderPages(store.db, runId));
    return;
  }
  const next = inbox(worker);
  try {
    for (;;) {
      worker.postMessage({ type: 'next' } satisfies PagesRequest);
      const m = await next();
      if (m.type === 'end') return;
      if (m.type === 'failed') throw Object.assign(new Error(m.error), m.code ? { code: m.code } : {});
      yield m.pages;
    }
  } finally {
    await worker.terminate();
  }
}
