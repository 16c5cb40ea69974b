/**
 * Running an uploaded file's import in the background. On SQLite it runs in a worker thread
 * with its own connection (job-worker.ts): the event loop stays free however large the file.
 * On PostgreSQL (whose I/O never blocks the loop), or should a worker not start, it runs
 * here in short chunks that yield.
 */
import type { ImportKind } from '#shared/schemas/imports.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Worker } from 'node:worker_threads';
import { finishImportJob, importCsvFile } from '../../domain/import-export/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { isDomainError } from '../../domain/index.ts';
import { startModuleWorker } from '../../worker-start.ts';
import { storageFailure } from '../errors.ts';

/**
 * A worker's chunk's write transaction: long enough to write efficiently, short enough that a
 * gift entered meanwhile barely waits (the server thread sits in SQLite's busy handler until
 * the chunk's transaction commits). The worker reads and checks the rows before it, on its
 * own thread, and that does not count.
 */
export const TARGET_WORKER_WRITE_MS = 60;
/** A chunk on the server's own thread: the event loop gets a turn at least this often. */
const TARGET_LOOP_CHUNK_MS = 25;

export interface JobSpec {
  jobId: string;
  accountId: string;
  kind: ImportKind;
  push: boolean;
  /** the uploaded CSV */
  file: string;
  /** the SQLite file (worker runs only) */
  databaseFile: string;
}

export type JobWorkerMessage =
  { type: 'done' } | { type: 'failed'; error: string; unexpected: string | null };

const AFTER =
  'The rows counted as imported are saved; import the file again to finish (rows with an externalId are not added twice).';

/** What a failed job tells the user (never a stack trace). */
export function failureMessage(err: unknown, stopped: boolean): string {
  if (stopped) return `stopped: GiftDesk was shutting down. ${AFTER}`;
  if (isDomainError(err)) return err.message;
  const storage = storageFailure(err);
  if (storage) return `${storage.message.replace(/: nothing was saved\./, '.')} ${AFTER}`;
  return `The import stopped on an unexpected error. ${AFTER}`;
}

function startWorker(spec: JobSpec): Worker {
  return startModuleWorker(import.meta.url, 'job-worker', { workerData: spec });
}

export interface RunningJob {
  stop(): void;
  /** Settles when the job has finished and recorded how (never rejects). */
  done: Promise<void>;
}

/**
 * Starts an import job. `thread`: 'auto' (a worker on SQLite), or 'server' to run it on this
 * thread (what PostgreSQL does, and the fallback; tests use it to cover that path).
 */
export function runImportJob(
  ctx: DomainContext,
  spec: Omit<JobSpec, 'databaseFile'>,
  log: FastifyBaseLogger,
  thread: 'auto' | 'server' = 'auto',
): RunningJob {
  if (thread === 'auto' && ctx.store.engine === 'sqlite') {
    let worker: Worker | null = null;
    try {
      worker = startWorker({ ...spec, databaseFile: ctx.store.location });
    } catch (err) {
      log.warn({ err, importId: spec.jobId }, 'import worker did not start; importing on the server thread');
    }
    if (worker) return watchWorker(ctx, worker, spec, log);
  }
  return runHere(ctx, spec, log);
}

function watchWorker(
  ctx: DomainContext,
  worker: Worker,
  spec: Omit<JobSpec, 'databaseFile'>,
  log: FastifyBaseLogger,
): RunningJob {
  let settled = false;
  let stopped = false;
  const done = new Promise<void>((resolve) => {
    worker.on('message', (m: JobWorkerMessage) => {
      settled = true;
      if (m.type === 'failed' && m.unexpected)
        log.error({ importId: spec.jobId, detail: m.unexpected }, 'import failed');
    });
    worker.on('error', (err) => log.error({ err, importId: spec.jobId }, 'import worker failed'));
    worker.on('exit', () => {
      if (settled) return resolve();
      // The worker ended without saying how (it could not start, or crashed): say so on the job.
      finishImportJob(ctx, spec.jobId, {
        status: 'failed',
        error: failureMessage(new Error('import worker stopped'), stopped),
      })
        .catch((err: unknown) =>
          log.error({ err, importId: spec.jobId }, 'could not record the failed import'),
        )
        .finally(resolve);
    });
  });
  return {
    stop() {
      stopped = true;
      worker.postMessage({ type: 'stop' });
    },
    done,
  };
}

function runHere(
  ctx: DomainContext,
  spec: Omit<JobSpec, 'databaseFile'>,
  log: FastifyBaseLogger,
): RunningJob {
  const stop = new AbortController();
  const done = (async () => {
    try {
      await importCsvFile(
        ctx,
        {
          kind: spec.kind,
          accountId: spec.accountId,
          push: spec.push,
          jobId: spec.jobId,
          chunkRows: 200,
          targetChunkMs: TARGET_LOOP_CHUNK_MS,
          collectRejected: false,
          signal: stop.signal,
        },
        spec.file,
      );
      await finishImportJob(ctx, spec.jobId, { status: 'done' });
    } catch (err) {
      if (!isDomainError(err)) log.error({ err, importId: spec.jobId }, 'import failed');
      await finishImportJob(ctx, spec.jobId, {
        status: 'failed',
        error: failureMessage(err, stop.signal.aborted),
      }).catch((e: unknown) =>
        log.error({ err: e, importId: spec.jobId }, 'could not record the failed import'),
      );
    }
  })();
  return { stop: () => stop.abort(), done };
}
