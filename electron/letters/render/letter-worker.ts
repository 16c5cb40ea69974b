/**
 * The letter renderer's worker thread: draws the PDF (fonts, layout, compression) on a
 * thread of its own, so the event loop that serves gift entry stays free while a run prints.
 * Started by thread.ts, which sends it one job at a time and keeps it warm between jobs;
 * built beside main.js as letter-worker.js.
 */
import { parentPort } from 'node:worker_threads';
import { yieldToTheEventLoop } from '../../worker-priority.ts';
import { type LettersFile, openLettersFile, renderLettersToBuffer } from './pdf.ts';
import type { RenderJob, RenderMessage, WorkerRequest } from './thread.ts';

yieldToTheEventLoop();
const port = parentPort!;
const post = (m: RenderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/** The preview: every page at once, answered as bytes. */
async function renderBytes(job: RenderJob): Promise<void> {
  const bytes = await renderLettersToBuffer(job.pages, job.title);
  const copy = new Uint8Array(bytes);
  post({ type: 'done', bytes: copy }, [copy.buffer]);
}

/** A run's file, open while its letters arrive in chunks (thread.ts, renderPdf). */
let open: { file: LettersFile; rendered: number; last: number; failed: boolean } | null = null;

async function handle(m: WorkerRequest): Promise<void> {
  switch (m.type) {
    case 'bytes':
      return renderBytes(m.job);
    case 'open':
      open = { file: openLettersFile(m.out, m), rendered: 0, last: 0, failed: false };
      return;
    case 'pages': {
      const run = open;
      if (!run || run.failed) return post({ type: 'ack' });
      for (const page of m.pages) {
        await run.file.add(page);
        run.rendered += 1;
        const now = Date.now();
        if (now - run.last >= 100) {
          run.last = now;
          post({ type: 'progress', rendered: run.rendered });
        }
      }
      post({ type: 'ack' });
      return;
    }
    case 'close': {
      const run = open;
      open = null;
      if (!run || run.failed) return;
      const { pages } = await run.file.close();
      post({ type: 'progress', rendered: run.rendered });
      post({ type: 'done', bytes: null, pages });
      return;
    }
  }
}

/** One request at a time, in the order sent; a failure ends the job it belongs to. */
let queue: Promise<void> = Promise.resolve();
port.on('message', (m: WorkerRequest) => {
  queue = queue.then(() =>
    handle(m).catch((err: unknown) => {
      if (open) open.failed = true;
      post({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
    }),
  );
});
