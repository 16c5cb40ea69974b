/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): campaigns, committees and donation accounts (with their contribution limits).
 */
import { accountQuery } from '#shared/schemas/common.ts';
import {
  Campaign,
  CampaignCreate,
  CampaignUpdate,
  Committee,
  CommitteeCreate,
  CommitteeUpdate,
  DonationAccount,
  DonationAccountCreate,
  DonationAccountUpdate,
} from '#shared/schemas/extensions.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DomainContext } from '../../domain/index.ts';
import {
  createCampaign,
  createCommittee,
  createDonationAccount,
  listCampaigns,
  listCommittees,
  listDonationAccounts,
  requireCampaign,
  requireCommittee,
  requireDonationAccount,
  updateCampaign,
  updateCommittee,
  updateDonationAccountLimits,
} from '../../domain/reference/index.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors, listOf, tags } from './common.ts';

/** GET /campaigns/:id: the one reference route the donor API names. */
async function campaignById(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/campaigns/:id', {
    schema: {
      tags,
      summary: 'Read a campaign and its donation accounts',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: Campaign, ...errors(400, 403, 404) },
    },
    handler: async (req) => requireCampaign(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
}

/**
 * `specOnly` (`giftdesk serve --spec-only`): only GET /campaigns/:id, the one reference route
 * the donor API names (a campaign and its donation accounts); no lists, no writes.
 */
export async function referenceRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  opts: { specOnly?: boolean } = {},
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  if (opts.specOnly) return campaignById(app, ctx);

  /* campaigns */
  r.get('/campaigns', {
    schema: {
      tags,
      summary: 'List campaigns with their totals',
      querystring: accountQuery,
      response: { 200: listOf(Campaign), ...errors(400, 403) },
    },
    handler: async (req) => ({ data: await listCampaigns(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  await campaignById(app, ctx);
  r.post('/campaigns', {
    schema: {
      tags,
      summary: 'Create a campaign',
      body: CampaignCreate,
      response: { 201: Campaign, ...errors(400, 403, 404) },
    },
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(await createCampaign(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/campaigns/:id', {
    schema: {
      tags,
      summary: 'Rename a campaign or replace its donation accounts (the list is sent whole)',
      params: IdParams,
      body: CampaignUpdate,
      response: { 200: Campaign, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      updateCampaign(ctx, scopedAccount(req, req.body.accountId), req.params.id, {
        name: req.body.name,
        donationAccountIds: req.body.donationAccountIds,
      }),
  });

  /* committees */
  r.get('/committees', {
    schema: {
      tags,
      summary: 'List committees',
      querystring: accountQuery,
      response: { 200: listOf(Committee), ...errors(400, 403) },
    },
    handler: async (req) => ({ data: await listCommittees(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.get('/committees/:id', {
    schema: {
      tags,
      summary: 'Read a committee',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: Committee, ...errors(400, 403, 404) },
    },
    handler: async (req) => requireCommittee(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/committees', {
    schema: {
      tags,
      summary: 'Create a committee',
      body: CommitteeCreate,
      response: { 201: Committee, ...errors(400, 403) },
    },
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(await createCommittee(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/committees/:id', {
    schema: {
      tags,
      summary: 'Rename a committee',
      params: IdParams,
      body: CommitteeUpdate,
      response: { 200: Committee, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      updateCommittee(ctx, scopedAccount(req, req.body.accountId), req.params.id, { name: req.body.name }),
  });

  /* donation accounts */
  r.get('/donation-accounts', {
    schema: {
      tags,
      summary: 'List donation accounts and their contribution limits',
      querystring: accountQuery,
      response: { 200: listOf(DonationAccount), ...errors(400, 403) },
    },
    handler: async (req) => ({
      data: await listDonationAccounts(ctx, scopedAccount(req, req.query.accountId)),
    }),
  });
  r.get('/donation-accounts/:id', {
    schema: {
      tags,
      summary: 'Read a donation account and its limits',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: DonationAccount, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      requireDonationAccount(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/donation-accounts', {
    schema: {
      tags,
      summary: 'Create a donation account with limits (decimal dollars; null for none)',
      body: DonationAccountCreate,
      response: { 201: DonationAccount, ...errors(400, 403) },
    },
    handler: async (req, reply) =>
      reply.code(201).send(
        await createDonationAccount(ctx, {
          accountId: scopedAccount(req, req.body.accountId),
          name: req.body.name,
          ...req.body.limits,
        }),
      ),
  });
  r.put('/donation-accounts/:id', {
    schema: {
      tags,
      summary: 'Rename a donation account or change its limits',
      params: IdParams,
      body: DonationAccountUpdate,
      response: { 200: DonationAccount, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      updateDonationAccountLimits(ctx, scopedAccount(req, req.body.accountId), req.params.id, {
        name: req.body.name,
        ...req.body.limits,
      }),
  });
}
