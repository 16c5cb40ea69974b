/**
 * Bulk import of contacts and donations from CSV: legacy history, a processor's export, an
 * HQ extract. Every row passes the same zod schema and the same domain functions as the API
 * (prepareContact; checkDonation, the reference list, electionFromCalendar, the limit
 * windows of D6), so a row is accepted here exactly when the API would accept it as a body.
 *
 * Fast because the per-row work is plain JavaScript: rows are checked outside the write
 * transaction, references are resolved per chunk with one query per kind, and rows go in
 * with multi-row INSERTs compiled once. Each chunk is one `store.write` (all of it or none),
 * the event loop gets a turn between chunks, and the server sizes chunks to keep each
 * transaction short.
 *
 * Row numbers: the line of the file a row starts on, the header being line 1. That is the
 * row number a spreadsheet shows, as long as no cell holds a line break.
 *
 * A row whose `externalId` the account already has (from an earlier run, or earlier in this
 * file) is skipped: neither imported again nor rejected.
 */
import { newId } from '#shared/ids.ts';
import type { ImportJob } from '#shared/schemas/imports.ts';
import { applyDonorTotalDeltas } from '../../db/donor-total-deltas.ts';
import { requireAccount } from '../accounts/accounts.ts';
import { THIS_PROCESS, ownerMayBeAlive } from '../accounts/sessions.ts';
import type { DomainContext } from '../context.ts';
import { type ImportKind, planColumns } from './csv-columns.ts';
import { type ImportedFile, refuseImportedBefore } from './imported-before.ts';
import { type CsvProgress, type CsvRecord, readCsv } from './csv-reader.ts';
import { listCustomFields } from '../contacts/custom-fields.ts';
import { DomainError } from '../errors.ts';
import type { ContactCache } from './gift-references.ts';
import { type ChunkSpec, writeChunk } from './write.ts';
import { type Rejection, type RowSource, fileSource, inProcessSource } from './rows.ts';

export type { Rejection };

export interface ImportProgress {
  /** Data rows handled so far: imported + rejected + skipped. */
  processed: number;
  imported: number;
  rejected: number;
  skipped: number;
  /** Bytes of the file read so far (CSV sources). */
  bytes: number;
}

export interface ImportResult {
  imported: number;
  /** Every rejected row (unless `collectRejected: false`, when the job table keeps them). */
  rejected: Rejection[];
  rejectedCount: number;
  skipped: number;
  processed: number;
}

export interface ImportOptions extends ChunkSpec {
  onProgress?: (p: ImportProgress) => void;
  /** Rows per transaction (the first chunk's, when a target adapts it); at least 1, as given. */
  chunkRows?: number;
  /**
   * Size chunks so each takes about this long, reading and checking its rows included (an
   * import on the server's own thread: its event loop is busy for all of it).
   */
  targetChunkMs?: number;
  /**
   * Size chunks so each chunk's write transaction (the time another writer of the same file
   * waits for) takes about this long; the rows' reading and checking, done before it, do not
   * count. Used instead of targetChunkMs when both are given.
   */
  targetWriteMs?: number;
  signal?: AbortSignal;
  /** Keep the rejected rows in the result (default true). */
  collectRejected?: boolean;
}

/** Imports CSV bytes from a stream (its rows are checked in this thread). */
export function importCsv(
  ctx: DomainContext,
  opts: ImportOptions,
  source: AsyncIterable<Uint8Array | string>,
): Promise<ImportResult> {
  const progress: CsvProgress = { bytes: 0 };
  return runImport(
    ctx,
    opts,
    inProcessSource(opts.kind, opts.accountId, readCsv(source, progress), progress),
  );
}

/**
 * A header and its rows, already split into cells, as the records importRecords reads: the
 * header as line 1, then the rows from line 2, `chunk` rows to a batch (the rows are read as
 * the batches are asked for, so a generator of rows is never held whole).
 */
export async function* csvRecordsOf(
  header: string[],
  rows: Iterable<string[]>,
  chunk = 1000,
): AsyncGenerator<CsvRecord[]> {
  yield [{ cells: header, line: 1 }];
  let batch: CsvRecord[] = [];
  let line = 2;
  for (const cells of rows) {
    batch.push({ cells, line: line++ });
    if (batch.length === chunk) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Imports records already split into cells, the header first (demo data; csvRecordsOf makes them). */
export function importRecords(
  ctx: DomainContext,
  opts: ImportOptions,
  batches: AsyncIterable<CsvRecord[]>,
): Promise<ImportResult> {
  return runImport(ctx, opts, inProcessSource(opts.kind, opts.accountId, batches));
}

/** Imports a CSV file (the CLI; the server's uploads). */
export function importCsvFile(ctx: DomainContext, opts: ImportOptions, file: string): Promise<ImportResult> {
  return runImport(ctx, opts, fileSource(opts.kind, opts.accountId, file));
}

const DEFAULT_CHUNK = 2000;
/** The fewest rows an adapted chunk holds (a chunkRows given is taken as it is). */
const MIN_CHUNK = 50;
const MAX_CHUNK = 100000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The import loop: checked rows from the source, a chunk at a time, each written in one
 * transaction, the event loop given a turn between chunks.
 */
async function runImport(ctx: DomainContext, opts: ImportOptions, source: RowSource): Promise<ImportResult> {
  let ended = false;
  try {
    await requireAccount(ctx, opts.accountId);
    const defsNow = () => listCustomFields(ctx.store.db, opts.accountId);
    await source.start(await defsNow());
    const keep = opts.collectRejected !== false;
    const totals = { processed: 0, imported: 0, rejected: 0, skipped: 0 };
    const rejected: Rejection[] = [];
    const cache: ContactCache = { ids: new Set(), refs: new Map() };
    let chunkRows = Math.min(MAX_CHUNK, Math.max(1, Math.floor(opts.chunkRows ?? DEFAULT_CHUNK)));
    for (;;) {
      if (opts.signal?.aborted)
        throw new DomainError(
          'conflict',
          'import_stopped',
          'The import was stopped before the end of the file',
        );
      const started = performance.now();
      const at = ctx.now();
      const chunk = await source.next(chunkRows, at, opts.kind === 'contacts' ? await defsNow() : []);
      if (!chunk) break;
      await nextTurn();
      const writeStarted = performance.now();
      const outcome = await writeChunk(ctx, opts, chunk.checked, at, cache);
      const writeMs = performance.now() - writeStarted;
      totals.processed += chunk.records;
      totals.imported += outcome.imported;
      totals.skipped += outcome.skipped;
      totals.rejected += outcome.rejections.length;
      if (keep) for (const r of outcome.rejections) rejected.push(r);
      opts.onProgress?.({ ...totals, bytes: chunk.bytes });
      const target = opts.targetWriteMs ?? opts.targetChunkMs;
      if (target) {
        // Rows per chunk follow the time a row took (smoothed), toward the target a chunk.
        const ms = opts.targetWriteMs ? writeMs : performance.now() - started;
        const next = target / Math.max(ms / chunk.records, 0.001);
        chunkRows = Math.round(Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, (chunkRows + next) / 2)));
      }
      await nextTurn();
    }
    ended = true;
    return {
      imported: totals.imported,
      rejected,
      rejectedCount: totals.rejected,
      skipped: totals.skipped,
      processed: totals.processed,
    };
  } finally {
    await source.close();
    if (opts.deferTotals && ctx.store.engine === 'sqlite') {
      // The donors' totals of every chunk saved, in one pass sorted by donor (stopped or
      // failed imports too: their saved gifts count). If this fails after the import itself
      // failed, the import's own error is the one reported; the next open applies them.
      const applying = applyDonorTotalDeltas(ctx.store, opts.targetWriteMs);
      if (ended) await applying;
      else await applying.catch(() => undefined);
    }
  }
}

/* ---------------- import jobs (the HTTP route runs imports in the background) ---------------- */

export type { ImportJob };

/**
 * Starts an import job. `file`: its SHA-256, and whether it has an externalId column. Without
 * that column, a file the account imported before (still running, or having added rows) is a
 * 409 unless `again`: every row would be added a second time (last month's file chosen again,
 * or sent again after a lost answer). With it, a re-run adds nothing twice and is not asked.
 */
export async function createImportJob(
  ctx: DomainContext,
  p: { accountId: string; kind: ImportKind; push: boolean; totalRows: number; file?: ImportedFile },
): Promise<ImportJob> {
  await requireAccount(ctx, p.accountId);
  const id = newId('importJob');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (p.file) await refuseImportedBefore(trx, ctx.store.engine, p.accountId, p.kind, p.file);
    await trx
      .insertInto('imports')
      .values({
        id,
        accountId: p.accountId,
        kind: p.kind,
        status: 'running',
        owner: THIS_PROCESS,
        totalRows: p.totalRows,
        processedRows: 0,
        importedRows: 0,
        rejected: '[]',
        push: p.push ? 1 : 0,
        error: null,
        createdAt: at,
        finishedAt: null,
        fileSha256: p.file?.sha256 ?? null,
      })
      .execute();
  });
  return (await getImportJob(ctx, p.accountId, id))!;
}

export async function getImportJob(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<ImportJob | undefined> {
  const r = await ctx.store.db
    .selectFrom('imports')
    .selectAll()
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    kind: r.kind as ImportKind,
    status: r.status,
    push: r.push === 1,
    totalRows: Number(r.totalRows),
    processedRows: Number(r.processedRows),
    imported: Number(r.importedRows),
    rejectedCount: Number(r.rejectedCount),
    skipped: Number(r.skippedRows),
    error: r.error,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}

export async function requireImportJob(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<ImportJob> {
  const job = await getImportJob(ctx, accountId, id);
  if (!job)
    throw new DomainError('not_found', 'import_not_found', `Import ${id} was not found`, [
      { field: 'id', issue: 'does not exist in this account' },
    ]);
  return job;
}

/** Marks a job finished: done (totalRows becomes the rows actually read), or failed with a reason. */
export async function finishImportJob(
  ctx: DomainContext,
  id: string,
  outcome: { status: 'done' } | { status: 'failed'; error: string },
): Promise<void> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (outcome.status === 'done') {
      await trx
        .updateTable('imports')
        .set((eb) => ({ status: 'done', totalRows: eb.ref('processedRows'), finishedAt: at }))
        .where('id', '=', id)
        .execute();
    } else {
      await trx
        .updateTable('imports')
        .set({ status: 'failed', error: outcome.error, finishedAt: at })
        .where('id', '=', id)
        .execute();
    }
  });
}

/**
 * Jobs left running by a process that stopped (a server starts, a CLI import begins): they
 * will not finish. A job's owner is the process that runs it: only the jobs of a process of
 * this machine that is gone are failed, not another server's (PostgreSQL) nor a CLI import
 * running beside a server. On SQLite a running job kept before owners were is one too (one
 * server then, and no CLI job); on PostgreSQL it is left alone.
 */
export async function failInterruptedImports(ctx: DomainContext): Promise<number> {
  const at = ctx.now();
  const ids = (
    await ctx.store.db.selectFrom('imports').select(['id', 'owner']).where('status', '=', 'running').execute()
  )
    .filter((j) => (j.owner === null ? ctx.store.engine === 'sqlite' : !ownerMayBeAlive(j.owner)))
    .map((j) => j.id);
  if (ids.length === 0) return 0;
  return ctx.store.write(async (trx) => {
    const r = await trx
      .updateTable('imports')
      .where('id', 'in', ids)
      .set({
        status: 'failed',
        error:
          'interrupted: GiftDesk stopped before the import finished; the rows counted as imported are saved (import the file again: rows with an externalId are not added twice)',
        finishedAt: at,
      })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
}

/** The rejected rows of a job, in row order, a page at a time. */
export async function* importRejections(ctx: DomainContext, id: string): AsyncGenerator<Rejection[]> {
  let after = 0;
  for (;;) {
    const page = await ctx.store.db
      .selectFrom('importRejections')
      .select(['rowNo', 'reason'])
      .where('importId', '=', id)
      .where('rowNo', '>', after)
      .orderBy('rowNo')
      .limit(1000)
      .execute();
    if (page.length === 0) return;
    yield page.map((r) => ({ row: Number(r.rowNo), reason: r.reason }));
    after = Number(page[page.length - 1]!.rowNo);
  }
}

/** A header check before a job starts (the route answers 400 at once for a file it would refuse). */
export async function checkImportHeader(
  ctx: DomainContext,
  kind: ImportKind,
  accountId: string,
  header: readonly string[],
): Promise<void> {
  await requireAccount(ctx, accountId);
  planColumns(kind, header, await listCustomFields(ctx.store.db, accountId));
}
