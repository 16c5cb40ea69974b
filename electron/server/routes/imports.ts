/**
 * Bulk import and export over HTTP (the desktop app imports in the server process).
 *
 * POST /imports?accountId&kind&push with a text/csv body (up to 512 MiB): the file is
 * spooled to a private temp file while its rows are counted, its header checked (400 at
 * once for a file the import would refuse), then 202 with the job; the import runs in the
 * background (imports/jobs.ts: a worker thread on SQLite), so the server keeps answering. GET /imports/:id follows it;
 * GET /imports/:id/rejected.csv lists the rejected rows. GET /exports/<kind>.csv streams an
 * export in the columns the import reads.
 */
import { ErrorBody, accountQuery } from '#shared/schemas/common.ts';
import { CsvText, ImportCsvBody, ImportJob, ImportQuery, type ImportKind } from '#shared/schemas/imports.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  checkImportHeader,
  createImportJob,
  createRecordCounter,
  csvHeader,
  csvLine,
  exportCsv,
  failInterruptedImports,
  hasExternalIdColumn,
  importRejections,
  requireImportJob,
} from '../../domain/import-export/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import { errorBody } from '../errors.ts';
import { runImportJob } from '../imports/jobs.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors } from './common.ts';

const tags = ['Extensions'];
export const IMPORT_BODY_LIMIT = 512 * 1024 * 1024;

class TooLarge extends Error {}
const tooLarge = () =>
  new TooLarge(`The file is larger than this server accepts (${IMPORT_BODY_LIMIT / 2 ** 20} MiB)`);

/** The body stream → a private temp file, its size checked and its records counted on the way. */
async function spool(
  body: Readable,
  file: string,
): Promise<{ bytes: number; records: number; sha256: string }> {
  const counter = createRecordCounter();
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > IMPORT_BODY_LIMIT) {
        done(tooLarge());
        return;
      }
      counter.push(chunk);
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(body, meter, fs.createWriteStream(file, { mode: 0o600 }));
  return { bytes, records: counter.records(), sha256: hash.digest('hex') };
}

/**
 * A CSV response body, streamed. Fastify sends a stream as it is (no serializer sees it);
 * the route's schema documents the text it carries, hence the type.
 */
const csvStream = (text: AsyncIterable<string>): string => Readable.from(text) as unknown as string;

export async function importRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  // A job shown as running whose process is gone was cut off by a stop (not another live
  // server's, nor a CLI import's running beside this server).
  await failInterruptedImports(ctx);

  const running = new Map<string, { stop: () => void; done: Promise<void> }>();

  await app.register(async (scope) => {
    // A file body arrives as a stream, whatever its declared type but JSON (this scope only:
    // elsewhere a CSV body stays a 415).
    scope.addContentTypeParser('*', (_req: FastifyRequest, payload, done) => done(null, payload));
    scope.addHook('onClose', async () => {
      for (const job of running.values()) job.stop();
      await Promise.all([...running.values()].map((j) => j.done));
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post('/imports', {
      bodyLimit: IMPORT_BODY_LIMIT,
      // The body is a stream of CSV, documented as text and checked by the import itself; the
      // query goes through zod as everywhere (Fastify hands over one part's schema at a time).
      validatorCompiler: (part) =>
        part.httpPart === 'body'
          ? (data: unknown) => ({ value: data })
          : validatorCompiler(part as unknown as Parameters<typeof validatorCompiler>[0]),
      schema: {
        tags,
        summary:
          'Import contacts or donations from a CSV file (runs in the background; follow it at /imports/{id})',
        description:
          "Columns: the create fields' wire names, plus externalId (a re-run adds nothing twice), contactExternalId (donations: a contact by its externalId), address.street1… (contacts: one primary address), customFields.<Field Name>. Tags as a;b. Every row passes the same rules as POST /contacts or /donations; rejected rows are listed at /imports/{id}/rejected.csv with their row number (the line of the file a row starts on, the header being line 1). push=false: history HQ already has, not queued for sync. A file with no externalId column that the account imported before (the same bytes, still running or having added rows) is a 409 naming (body): importing it again would add every row a second time; again=true imports it anyway.",
        consumes: ['text/csv'],
        querystring: ImportQuery,
        body: ImportCsvBody,
        response: { 202: ImportJob, 413: ErrorBody, 415: ErrorBody, ...errors(400, 403, 404, 409) },
      },
      handler: async (req, reply) => {
        const accountId = scopedAccount(req, req.query.accountId);
        const kind: ImportKind = req.query.kind;
        const push = req.query.push !== 'false';
        const body: unknown = req.body;
        if (!(body instanceof Readable))
          return reply
            .code(415)
            .send(
              errorBody(
                415,
                'unsupported_media_type',
                'Send the CSV file as the request body with Content-Type: text/csv',
              ),
            );
        const tooBig = () => reply.code(413).send(errorBody(413, 'body_too_large', tooLarge().message));
        if (Number(req.headers['content-length'] ?? 0) > IMPORT_BODY_LIMIT) return tooBig();
        const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'giftdesk-import-'));
        const file = path.join(dir, 'upload.csv');
        let started = false;
        try {
          let records: number;
          let sha256: string;
          try {
            ({ records, sha256 } = await spool(body, file));
          } catch (err) {
            if (err instanceof TooLarge) return tooBig();
            throw err;
          }
          const header = await csvHeader(file);
          if (!header)
            throw new DomainError('bad_request', 'empty_file', 'The file is empty: it has no header row', [
              { field: '(body)', issue: 'is empty' },
            ]);
          await checkImportHeader(ctx, kind, accountId, header);
          const job = await createImportJob(ctx, {
            accountId,
            kind,
            push,
            totalRows: Math.max(0, records - 1),
            file: { sha256, byExternalId: hasExternalIdColumn(header), again: req.query.again === 'true' },
          });
          const run = runImportJob(ctx, { jobId: job.id, accountId, kind, push, file }, req.log);
          const done = run.done.finally(() => {
            running.delete(job.id);
            return fs.promises.rm(dir, { recursive: true, force: true });
          });
          running.set(job.id, { stop: () => run.stop(), done });
          started = true;
          return reply.code(202).send(job);
        } finally {
          if (!started) await fs.promises.rm(dir, { recursive: true, force: true });
        }
      },
    });

    r.get('/imports/:id', {
      schema: {
        tags,
        summary: "An import's progress",
        params: IdParams,
        querystring: accountQuery,
        response: { 200: ImportJob, ...errors(400, 403, 404) },
      },
      handler: async (req) => requireImportJob(ctx, scopedAccount(req, req.query.accountId), req.params.id),
    });

    r.get('/imports/:id/rejected.csv', {
      schema: {
        tags,
        summary: "An import's rejected rows as CSV: row, reason",
        produces: ['text/csv'],
        params: IdParams,
        querystring: accountQuery,
        response: { 200: CsvText, ...errors(400, 403, 404) },
      },
      handler: async (req, reply) => {
        const job = await requireImportJob(ctx, scopedAccount(req, req.query.accountId), req.params.id);
        async function* lines() {
          yield csvLine(['row', 'reason']);
          for await (const page of importRejections(ctx, job.id))
            yield page.map((x) => csvLine([x.row, x.reason])).join('');
        }
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${job.id}-rejected.csv"`)
          .send(csvStream(lines()));
      },
    });

    for (const kind of ['contacts', 'donations'] as const) {
      r.get(`/exports/${kind}.csv`, {
        schema: {
          tags,
          summary: `Export the account's ${kind} as CSV, in the columns the import reads`,
          produces: ['text/csv'],
          querystring: accountQuery,
          response: { 200: CsvText, ...errors(400, 403, 404) },
        },
        handler: async (req, reply) => {
          const accountId = scopedAccount(req, req.query.accountId);
          async function* text() {
            for await (const page of exportCsv(ctx, kind, accountId)) yield page.text;
          }
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${kind}.csv"`)
            .send(csvStream(text()));
        },
      });
    }
  });
}
