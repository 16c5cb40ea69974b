import { accountQuery } from '#shared/schemas/common.ts';
import {
  DonationCreateRequest,
  DonationCreated,
  DonationDetail,
  DonationList,
  DonationListQuery,
  DonationPatchBody,
  DonationVoidBody,
} from '#shared/schemas/donations.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  correctDonation,
  createDonationOnce,
  getDonation,
  listDonations,
  voidDonation,
} from '../../domain/donations/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { mayBeUpstream } from './resent.ts';
import { IdParams, domainTypedSerializer, errors } from './common.ts';

const tags = ['Donations'];

/**
 * `specOnly` (`giftdesk serve --spec-only`): the donor API's two routes only, as documented —
 * no create-once by a `gd:` reference (D7: a re-posted gift is a second gift), no batch.
 */
export async function donationRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  opts: { specOnly?: boolean } = {},
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const specOnly = opts.specOnly === true;

  r.get('/donations', {
    schema: {
      tags,
      summary: 'List donations, newest first',
      querystring: DonationListQuery,
      response: { 200: DonationList, ...errors(400, 403) },
    },
    serializerCompiler: domainTypedSerializer,
    handler: async (req) =>
      listDonations(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });

  r.post('/donations', {
    schema: {
      tags,
      summary: 'Record a donation (GiftDesk also takes `batchId`, the gift-entry batch it is typed in)',
      description:
        'GiftDesk records a gift once per sync reference: when the last line of `notes` is a GiftDesk reference ' +
        '(`gd:` then an id, nothing else on the line) and the account already holds a gift created with it, the answer ' +
        'is 200 with that gift, and nothing is written (no second gift, no totals changed). Otherwise 201. (A gift ' +
        "typed in GiftDesk's own window is not read for a reference.) `resentSince` (from another GiftDesk): the gift was " +
        'sent before to an upstream that is lost and may be at HQ already; this server looks for it at HQ before sending it on.',
      body: DonationCreateRequest,
      response: { 201: DonationCreated, 200: DonationCreated, ...errors(400, 403, 404, 409, 413) },
    },
    serializerCompiler: domainTypedSerializer,
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { batchId, resentSince, ...body } = req.body;
      // At an event hub, a gift sent by a station's key is stamped with that station. A gift
      // typed in the app's window carries no sync reference (WriteOptions).
      const stationId = req.station?.id ?? null;
      const { donation, created } = await createDonationOnce(
        ctx,
        { ...body, accountId },
        specOnly
          ? { syncReference: false }
          : {
              batchId,
              stationId,
              syncReference: !req.auth?.session,
              ...mayBeUpstream(ctx, 'donation', resentSince),
            },
      );
      return reply.code(created ? 201 : 200).send(donation);
    },
  });

  if (specOnly) return;

  r.get('/donations/:id', {
    schema: {
      tags: ['Extensions'],
      summary: 'Read one donation in full (GiftDesk extension)',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: DonationDetail, ...errors(400, 403, 404) },
    },
    handler: async (req) => getDonation(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });

  r.patch('/donations/:id', {
    schema: {
      tags: ['Extensions'],
      summary: 'Correct a gift not yet sent to HQ (GiftDesk extension)',
      description:
        "Any create field but the account; every create rule applies again. A gift that was sent to HQ (or is being sent) is read-only: 409, because HQ's API cannot change a gift.",
      params: IdParams,
      body: DonationPatchBody,
      response: { 200: DonationDetail, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) => {
      const { accountId: sent, ...patch } = req.body;
      return correctDonation(ctx, scopedAccount(req, sent), req.params.id, patch);
    },
  });

  r.post('/donations/:id/void', {
    schema: {
      tags: ['Extensions'],
      summary: 'Void a gift not yet sent to HQ (GiftDesk extension)',
      description:
        'The gift stays on record with status voided, leaves totals and lists, and is never sent. A gift already sent to HQ (or being sent) cannot be voided here: 409.',
      params: IdParams,
      body: DonationVoidBody,
      response: { 200: DonationDetail, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) =>
      voidDonation(ctx, scopedAccount(req, req.body.accountId), req.params.id, req.body.reason ?? null),
  });
}
