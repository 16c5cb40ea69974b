/**
 * Letters, receipts and year-end statements (GiftDesk extension): the account's wording and
 * settings, print runs (start, progress, the PDF, mark as sent), the first letter's preview —
 * and the route a GiftDesk HQ or event hub takes thank-you marks on (the donor API has no
 * donation update; docs/design.md, "Thank-you marks and HQ").
 *
 * A run's PDF is written in the data folder (`letters/<runId>.pdf`): a server given no data
 * folder answers a new run 409. Rendering goes on after the 201 (on a worker thread); the run's
 * `status` and `rendered` say how far it is.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import {
  LetterChoice,
  LetterPdf,
  LetterPreviewQuery,
  LetterRun,
  LetterRunCreate,
  LetterRunList,
  LetterRunListQuery,
  LetterRunPartParams,
  LetterSettings,
  LetterSettingsUpdate,
  MarkSentBody,
  MarkSentResult,
  ThankYouMarks,
  ThankYouMarksResult,
} from '#shared/schemas/letters.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fs from 'node:fs';
import { takeThankYouMarks } from '../../domain/donations/index.ts';
import { DomainError, type DomainContext } from '../../domain/index.ts';
import {
  getLetterRun,
  letterRunPdfPath,
  listLetterRuns,
  loadLetterSettings,
  markRunSent,
  previewFirstLetter,
  saveLetterSettings,
  startLetterRunOnce,
} from '../../letters/index.ts';
import { marksNoteFor } from '../../sync/index.ts';
import { acting, scopedAccount } from '../scope.ts';
import { errors, IdParams, tags } from './common.ts';

/** A PDF answer: shown in the browser (inline), saved under `filename`. */
function sendPdf(reply: FastifyReply, filename: string, body: Buffer | fs.ReadStream): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', `inline; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/** The choice a preview's query names, as a print run takes it. */
function choiceOf(q: LetterPreviewQuery): LetterChoice {
  const { accountId: _a, notThanked, ...rest } = q;
  return { ...rest, ...(notThanked !== undefined ? { notThanked: notThanked === 'true' } : {}) };
}

/** Why a run has no PDF to give: still rendering, failed, or it found no gifts. */
function noPdf(run: LetterRun): DomainError {
  if (run.status === 'rendering')
    return new DomainError(
      'conflict',
      'run_not_ready',
      `The run is still rendering (${run.rendered} of ${run.documents} letters): its PDF is not written yet`,
      [{ field: 'id', issue: 'is still rendering' }],
    );
  if (run.status === 'failed')
    return new DomainError('conflict', 'run_failed', run.error ?? 'The run failed: it has no PDF', [
      { field: 'id', issue: 'failed' },
    ]);
  return new DomainError('not_found', 'no_letters', 'The run found no gifts: it has no PDF', [
    { field: 'id', issue: 'has no letters' },
  ]);
}

/** A run's PDF: the one file of a run, or each of its parts. */
function runPdfRoutes(app: FastifyInstance, ctx: DomainContext, dataDir: string | null): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/letters/runs/:id/pdf', {
    schema: {
      tags,
      summary: "A print run's PDF, every letter in it",
      description:
        '409 while the run is rendering or when it failed; 404 for a run that found no gifts. A run printed in ' +
        'several parts (more letters than a part holds) answers 409 `run_in_parts`: fetch each of its `parts`.',
      produces: ['application/pdf'],
      params: IdParams,
      querystring: accountQuery,
      response: { 200: LetterPdf, ...errors(400, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const run = await getLetterRun(ctx, accountId, req.params.id);
      const file = dataDir === null ? null : await letterRunPdfPath(ctx, dataDir, accountId, run.id);
      if (file === null || !fs.existsSync(file)) throw noPdf(run);
      return sendPdf(reply, `${run.kind}-${run.id}.pdf`, fs.createReadStream(file));
    },
  });

  r.get('/letters/runs/:id/parts/:part/pdf', {
    schema: {
      tags,
      summary: "One part of a print run's letters, as a complete PDF",
      description:
        'A run of more letters than a part holds is printed in parts of consecutive letters, each its own PDF; ' +
        'the run lists them (`parts`: first and last letter, pages, this URL). Part 1 of a run in one part is its ' +
        'one PDF. 409 while the run is rendering or when it failed; 404 for a run that found no gifts or a part ' +
        'it does not have.',
      produces: ['application/pdf'],
      params: LetterRunPartParams,
      querystring: accountQuery,
      response: { 200: LetterPdf, ...errors(400, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const run = await getLetterRun(ctx, accountId, req.params.id);
      const part = req.params.part;
      const file = dataDir === null ? null : await letterRunPdfPath(ctx, dataDir, accountId, run.id, part);
      if (file === null || !fs.existsSync(file)) throw noPdf(run);
      const name =
        run.parts.length > 1
          ? `${run.kind}-${run.id}-part-${part}-of-${run.parts.length}.pdf`
          : `${run.kind}-${run.id}.pdf`;
      return sendPdf(reply, name, fs.createReadStream(file));
    },
  });
}

export async function letterRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  dataDir: string | null,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/letters/settings', {
    schema: {
      tags,
      summary:
        "The account's letter settings and wording (defaults for its organisation's kind until edited)",
      querystring: accountQuery,
      response: { 200: LetterSettings, ...errors(400, 403) },
    },
    handler: async (req) => loadLetterSettings(ctx.store.db, scopedAccount(req, req.query.accountId)),
  });

  r.put('/letters/settings', {
    schema: {
      tags,
      summary: 'Change the letter settings or a kind’s wording (a field left out keeps its value)',
      description:
        'A template given with `reset: true` goes back to the default for the organisation’s kind; one given with a heading or a body keeps the other part.',
      body: LetterSettingsUpdate,
      response: { 200: LetterSettings, ...errors(400, 403) },
    },
    handler: async (req) =>
      saveLetterSettings(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) }),
  });

  r.post('/letters/runs', {
    schema: {
      tags,
      summary: 'Start a print run: receipts, thank-you letters or year-end statements, in one PDF',
      description:
        'Answers 201 with the run, status `rendering` (or `done` at once when no gift matches: no PDF). Rendering goes on ' +
        'off the request; read `GET /letters/runs/{id}` for `rendered` of `documents`, then fetch `pdfUrl`. A receipt needs ' +
        '`donationId`; a year-end statement covers every completed gift of `year` (default: last year). `markSent: true` ' +
        'marks the run’s gifts thanked once the PDF is written. `entryKey`: a key the client mints for this start and ' +
        'sends again with every try of it; when the account already holds a run started with it (an earlier try whose ' +
        'answer was lost), the answer is 200 with that run as it is now, and nothing is started.',
      body: LetterRunCreate,
      response: { 201: LetterRun, 200: LetterRun, ...errors(400, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      if (dataDir === null)
        throw new DomainError(
          'conflict',
          'no_data_folder',
          'This server keeps no data folder, so it cannot write letters: start the run from the app or `giftdesk serve`',
        );
      const { run, created } = await startLetterRunOnce(acting(ctx, req), dataDir, {
        ...req.body,
        accountId,
      });
      return reply.code(created ? 201 : 200).send(run);
    },
  });

  r.get('/letters/runs', {
    schema: {
      tags,
      summary: "The account's print runs, newest first",
      querystring: LetterRunListQuery,
      response: { 200: LetterRunList, ...errors(400, 403) },
    },
    handler: async (req) => ({
      runs: await listLetterRuns(ctx, scopedAccount(req, req.query.accountId), req.query.limit ?? 50),
    }),
  });

  r.get('/letters/runs/:id', {
    schema: {
      tags,
      summary: 'One print run: its status and progress (`rendered` of `documents`)',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: LetterRun, ...errors(400, 403, 404) },
    },
    handler: async (req) => getLetterRun(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });

  runPdfRoutes(app, ctx, dataDir);

  r.get('/letters/preview', {
    schema: {
      tags,
      summary: 'The first letter of a choice, as a PDF (nothing is recorded)',
      description:
        'The query is a run’s choice: `kind` and its filters. The answer’s `X-Letter-Documents` and `X-Letter-Gifts` ' +
        'headers say how many letters and gifts the whole run would have. 404 when no completed gift matches.',
      produces: ['application/pdf'],
      querystring: LetterPreviewQuery,
      response: { 200: LetterPdf, ...errors(400, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const preview = await previewFirstLetter(ctx, accountId, choiceOf(req.query));
      reply.header('x-letter-documents', String(preview.documents));
      reply.header('x-letter-gifts', String(preview.gifts));
      return sendPdf(reply, `${req.query.kind}-preview.pdf`, preview.pdf);
    },
  });

  r.post('/letters/runs/:id/mark-sent', {
    schema: {
      tags,
      summary: "Mark exactly the run's gifts thanked (thankYouSent, thankYouSentDate)",
      description:
        'Idempotent: again later it marks nothing new and keeps the first date. 409 while the run is not done. The marks ' +
        'sync to HQ (in a gift’s create, or through `POST /donations/thank-you` where HQ is GiftDesk). `marksNote` says, in one ' +
        'sentence, when HQ is known not to take them (an HQ of the donor API alone): they stay marked here.',
      params: IdParams,
      body: MarkSentBody,
      response: { 200: MarkSentResult, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const marked = await markRunSent(acting(ctx, req), accountId, req.params.id);
      return { ...marked, marksNote: await marksNoteFor(ctx.store.db, accountId) };
    },
  });

  r.post('/donations/thank-you', {
    schema: {
      tags,
      summary: 'Mark gifts thanked, by id (GiftDesk extension)',
      description:
        'How another GiftDesk sends thank-you marks set after a gift reached this one (the donor API cannot change a gift). ' +
        "Sets `thankYouSent` and `thankYouSentDate` on the account's gifts named; a gift already marked keeps its first date " +
        'and is not counted, so sending the same marks again is harmless. Ids that are no gift of the account come back in ' +
        '`unknown`. A server without this route (404 or 405) takes no marks: the sender keeps them and says so. At an ' +
        "event hub, a station's key marks only the gifts typed at that station: naming any other gift is a 403 " +
        '`not_this_stations_gift` naming those gifts, and nothing is marked.',
      body: ThankYouMarks,
      response: { 200: ThankYouMarksResult, ...errors(400, 403) },
    },
    handler: async (req) =>
      takeThankYouMarks(acting(ctx, req), scopedAccount(req, req.body.accountId), req.body.donations, {
        onlyStation: req.station?.id,
      }),
  });
}
