/**
 * The worker of pages-thread.ts: reads and merges a run's letters over its own reading
 * connection, one chunk ahead of what the run has asked for, ten nice steps below the server.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReader } from '../db/reader.ts';
import { yieldToTheEventLoop } from '../worker-priority.ts';
import { donorOrderPages, letterPageChunks } from './paged.ts';
import type { PagesJob, PagesMessage, PagesRequest } from './pages-thread.ts';

// The run's reading takes what gift entry leaves, as its drawing does (letter-worker.ts).
yieldToTheEventLoop();
const port = parentPort;
if (!port) throw new Error('pages-worker.ts runs in a worker thread');
const job = workerData as PagesJob;
const reader = openReader(job.reader, { cacheMiB: job.cacheMiB });
const chunks = letterPageChunks(
  reader.db,
  job.accountId,
  job.runId,
  job.merging,
  donorOrderPages(reader.db, job.runId, job.orderPage),
);

/** The next chunk, started before it is asked for (its failure is answered when it is). */
function ahead() {
  const p = chunks.next();
  p.catch(() => undefined);
  return p;
}
let coming = ahead();

async function answer(): Promise<PagesMessage> {
  try {
    const r = await coming;
    if (r.done) {
      await reader.close();
      return { type: 'end' };
    }
    coming = ahead();
    return { type: 'chunk', pages: r.value };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    return {
      type: 'failed',
      error: err instanceof Error ? err.message : String(err),
      code: typeof code === 'string' ? code : null,
    };
  }
}

port.on('message', (m: PagesRequest) => {
  if (m.type === 'next') void answer().then((out) => port.postMessage(out));
});
