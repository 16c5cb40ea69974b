/**
 * A background import in a worker thread of its own, over a connection of its own to the
 * same SQLite file: its chunks' commits (fsync, checkpoints) and checks never hold up the
 * server's event loop. SQLite's locks order its writes with the server's; each chunk is one
 * short transaction, so a gift entered meanwhile waits for one chunk at most.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../../db/sqlite/open.ts';
import { finishImportJob, importCsvFile } from '../../domain/import-export/index.ts';
import { createContext, isDomainError } from '../../domain/index.ts';
import { type JobSpec, type JobWorkerMessage, TARGET_WORKER_WRITE_MS, failureMessage } from './jobs.ts';

function port() {
  if (!parentPort) throw new Error('job-worker.ts runs in a worker thread');
  return parentPort;
}

const spec = workerData as JobSpec;
const stop = new AbortController();
port().on('message', (m: { type: 'stop' }) => {
  if (m.type === 'stop') stop.abort();
});

let outcome: JobWorkerMessage;
const store = await openSqlite({ file: spec.databaseFile });
try {
  const ctx = createContext(store);
  try {
    await importCsvFile(
      ctx,
      {
        kind: spec.kind,
        accountId: spec.accountId,
        push: spec.push,
        jobId: spec.jobId,
        chunkRows: 500,
        targetWriteMs: TARGET_WORKER_WRITE_MS,
        collectRejected: false,
        signal: stop.signal,
      },
      spec.file,
    );
    await finishImportJob(ctx, spec.jobId, { status: 'done' });
    outcome = { type: 'done' };
  } catch (err) {
    const error = failureMessage(err, stop.signal.aborted);
    await finishImportJob(ctx, spec.jobId, { status: 'failed', error });
    outcome = {
      type: 'failed',
      error,
      unexpected: isDomainError(err) ? null : String((err as Error)?.stack ?? err),
    };
  }
} finally {
  await store.close();
}
port().postMessage(outcome);
port().close(); // nothing more to hear: the thread ends
