/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): gift-entry batches and the gifts typed in them.
 */
import {
  Batch,
  BatchCreate,
  BatchDonationList,
  BatchGiftBody,
  BatchGiftSaved,
  BatchList,
  BatchListQuery,
  BatchUpdate,
} from '#shared/schemas/batches.ts';
import { BatchCountBody, DepositSummary } from '#shared/schemas/batch-balance.ts';
import { accountQuery, pagingQuery } from '#shared/schemas/common.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  batchDepositSummary,
  countAndCloseBatch,
  createBatch,
  createDonationOnce,
  getDonation,
  listBatchDonations,
  listBatches,
  requireBatch,
  updateBatch,
} from '../../domain/donations/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { syncStatus } from '../../sync/index.ts';
import { acting, scopedAccount, volunteerOwner } from '../scope.ts';
import { IdParams, errors, tags } from './common.ts';
import type { SyncServices } from './sync.ts';

export async function batchRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  sync: SyncServices | undefined,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* gift-entry batches */
  r.get('/batches', {
    schema: {
      tags,
      summary: 'List gift-entry batches, newest first, with their count and total',
      querystring: BatchListQuery,
      response: { 200: BatchList, ...errors(400, 403) },
    },
    handler: async (req) => {
      const limit = req.query.limit ?? 20;
      const offset = req.query.offset ?? 0;
      return {
        ...(await listBatches(
          ctx,
          scopedAccount(req, req.query.accountId),
          { limit, offset },
          volunteerOwner(req),
        )),
        limit,
        offset,
      };
    },
  });
  r.get('/batches/:id', {
    schema: {
      tags,
      summary: 'Read a batch: its defaults, expected and actual count and total',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: Batch, ...errors(400, 403, 404) },
    },
    handler: async (req) => requireBatch(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.get('/batches/:id/donations', {
    schema: {
      tags,
      summary: "A batch's gifts in full, in the order they were typed",
      params: IdParams,
      querystring: z.object({ accountId: accountQuery.shape.accountId, ...pagingQuery }),
      response: { 200: BatchDonationList, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.query.accountId);
      await requireBatch(ctx, accountId, req.params.id);
      const limit = req.query.limit ?? 20;
      const offset = req.query.offset ?? 0;
      return {
        ...(await listBatchDonations(ctx, accountId, req.params.id, { limit, offset })),
        limit,
        offset,
      };
    },
  });
  r.post('/batches/:id/donations', {
    schema: {
      tags,
      summary:
        'Record a gift typed in this batch; answers the gift in full, the batch with its new count and total, and the sync status',
      description:
        'The same gift and the same rules as POST /v1/donations with `batchId`; the answer carries what gift entry shows (the sync status as GET /v1/sync/status answers it, after this gift), so the app reads nothing after a save. A closed batch: 409. ' +
        '`entryKey`: a key the client mints for the row the gift is typed in and sends again with every try of that row. ' +
        'When the account already holds a gift saved with it (an earlier try whose answer was lost), the answer is 200 with ' +
        'that gift as it is now and `alreadySaved: true`, and nothing is written; otherwise 201. Typed in a window (a signed-in ' +
        'session), a `gd:` line at the end of the notes is only text, never a sync reference.',
      params: IdParams,
      body: BatchGiftBody,
      response: { 201: BatchGiftSaved, 200: BatchGiftSaved, ...errors(400, 403, 404, 409, 413) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { entryKey, ...gift } = req.body;
      const { donation: saved, created } = await createDonationOnce(
        acting(ctx, req),
        { ...gift, accountId },
        {
          batchId: req.params.id,
          syncReference: !req.auth?.session,
          ...(entryKey !== undefined ? { entryKey } : {}),
        },
      );
      const [donation, batch, status] = await Promise.all([
        getDonation(ctx, accountId, saved.id),
        requireBatch(ctx, accountId, req.params.id),
        syncStatus(ctx.store.db, accountId, sync?.scheduler?.running ?? false),
      ]);
      return reply.code(created ? 201 : 200).send({ donation, batch, sync: status, alreadySaved: !created });
    },
  });
  r.post('/batches', {
    schema: {
      tags,
      summary: 'Start a gift-entry batch',
      description:
        '`entryKey`: a key the client mints for this start of a batch and sends again with every try of it. When the ' +
        'account already holds a batch started with it (an earlier try whose answer was lost), the answer is 200 with ' +
        'that batch as it is now, and nothing is written; otherwise 201.',
      body: BatchCreate,
      response: { 201: Batch, 200: Batch, ...errors(400, 403, 404) },
    },
    handler: async (req, reply) => {
      const { batch, created } = await createBatch(acting(ctx, req), {
        ...req.body,
        accountId: scopedAccount(req, req.body.accountId),
      });
      return reply.code(created ? 201 : 200).send(batch);
    },
  });
  r.put('/batches/:id', {
    schema: {
      tags,
      summary: 'Change a batch (only the fields sent; null clears); closed: true closes it to new gifts',
      params: IdParams,
      body: BatchUpdate,
      response: { 200: Batch, ...errors(400, 403, 404) },
    },
    handler: async (req) => updateBatch(ctx, scopedAccount(req, req.body.accountId), req.params.id, req.body),
  });
  r.get('/batches/:id/deposit', {
    schema: {
      tags,
      summary:
        "A batch's deposit summary: count and total by payment method, the cash total, every check, and its last count",
      description:
        'Read from the completed gifts as they are now. A check\'s number is read from its notes ("check 1021", "ck #1021"); null when none is written. `lastCount` is what was counted when the batch was last closed with POST /v1/batches/{id}/count (null: never counted).',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: DepositSummary, ...errors(400, 403, 404) },
    },
    handler: async (req) => batchDepositSummary(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/batches/:id/count', {
    schema: {
      tags,
      summary: 'Close a batch with what was counted: records who counted and the difference',
      description:
        'List every payment method the batch has gifts in, once, with the total counted (and the number of items where they are counted: checks, card slips). A count that differs from what was entered, by total or by number, is refused with 409 `count_differs` naming the difference unless `acceptDifference` is true; then it is recorded with its difference. The batch is closed to new gifts. A closed batch: 409 (reopen it with PUT closed: false to count again). Answers the deposit summary with the new count.',
      params: IdParams,
      body: BatchCountBody,
      response: { 200: DepositSummary, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) =>
      countAndCloseBatch(acting(ctx, req), scopedAccount(req, req.body.accountId), req.params.id, req.body),
  });
}
