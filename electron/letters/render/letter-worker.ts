/**
 * The letter renderer's worker thread: draws the PDF (fonts, layout, compression) on a
 * thread of its own, so the event loop that serves gift entry stays free while a run prints.
 * Started by thread.ts, which sends it one job at a time and keeps it warm between jobs;
 * built beside main.js as letter-worker.js.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { renderLettersToBuffer, renderLettersToFile } from './pdf.ts';
import type { RenderJob, RenderMessage } from './thread.ts';

/**
 * On Linux this thread alone (its id from /proc/thread-self) runs 10 nice steps below the
 * process, so the event loop that answers gift entry, and the app's own screens, get the
 * processor first while a run prints; the run takes what they leave. Elsewhere, or if the
 * system says no, it keeps the process's priority.
 */
function yieldToTheEventLoop(): void {
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
  } catch {
    // Not Linux, or not allowed: render at the process's priority.
  }
}

yieldToTheEventLoop();
const port = parentPort!;
const post = (m: RenderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/** One job (thread.ts sends the next only after this one's 'done' or 'failed'). */
async function render(job: RenderJob): Promise<void> {
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
}

port.on('message', (job: RenderJob) => void render(job));
