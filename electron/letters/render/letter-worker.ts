/**
 * The letter renderer's worker thread: draws the PDF (fonts, layout, compression) on a
 * thread of its own, so the event loop that serves gift entry stays free while a run prints.
 * Started by thread.ts; built beside main.js as letter-worker.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { renderLettersToBuffer, renderLettersToFile } from './pdf.ts';
import type { RenderJob, RenderMessage } from './thread.ts';

const job = workerData as RenderJob;
const port = parentPort!;
const post = (m: RenderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

let last = 0;
try {
  if (job.out === null) {
    const bytes = await renderLettersToBuffer(job.pages, job.title);
    const copy = new Uint8Array(bytes);
    post({ type: 'done', bytes: copy }, [copy.buffer]);
  } else {
    await renderLettersToFile(job.pages, job.out, {
      perDonorDir: job.perDonorDir,
      title: job.title,
      onProgress: (rendered) => {
        const now = Date.now();
        if (rendered === job.pages.length || now - last >= 100) {
          last = now;
          post({ type: 'progress', rendered });
        }
      },
    });
    post({ type: 'done', bytes: null });
  }
} catch (err) {
  post({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
}
