/**
 * GiftDesk's extension routes: what the app and staff scripts need beyond the spec. They
 * live under /api/v1 beside the spec routes and never change a spec route's behaviour.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountQuery, pagingQuery } from '../../../shared/schemas/common.ts';
import {
  Account,
  ApiKey,
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyRevoked,
  Campaign,
  CampaignCreate,
  CampaignUpdate,
  Committee,
  CommitteeCreate,
  CommitteeUpdate,
  CustomFieldAction,
  CustomFieldCreate,
  CustomFieldDefinition,
  DefaultElection,
  DonationAccount,
  DonationAccountCreate,
  DonationAccountUpdate,
  DonationHistoryEntry,
  Election,
  ElectionCreate,
  FlagActionBody,
  Flag,
  FlagList,
  FlagListQuery,
} from '../../../shared/schemas/extensions.ts';
import { Batch, BatchCreate, BatchDonationList, BatchGiftSaved, BatchList, BatchListQuery, BatchUpdate } from '../../../shared/schemas/batches.ts';
import { DonationCreateBody } from '../../../shared/schemas/donations.ts';
import { DonationStats, DonationStatsQuery } from '../../../shared/schemas/stats.ts';
import { createApiKey, getAccount, listApiKeys, revokeApiKey } from '../../domain/accounts.ts';
import { createBatch, listBatches, requireBatch, updateBatch } from '../../domain/batches.ts';
import { donationStats } from '../../domain/stats.ts';
import { readCounters } from '../../domain/change-log.ts';
import type { DomainContext } from '../../domain/context.ts';
import {
  addCustomFieldOption,
  archiveCustomField,
  createCustomField,
  listCustomFields,
  retireCustomFieldOption,
} from '../../domain/custom-fields.ts';
import { createDonation, getDonation, listBatchDonations } from '../../domain/donations.ts';
import { createElection, listElections, setDefaultElection } from '../../domain/elections.ts';
import { DomainError, invalidField, notFound } from '../../domain/errors.ts';
import { donationHistory, listFlags, resolveFlag } from '../../domain/limits.ts';
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
} from '../../domain/reference.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors } from './common.ts';

const tags = ['Extensions'];
const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

export async function extensionRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/account', {
    schema: { tags, summary: 'The account of this key, with its counts', querystring: accountQuery, response: { 200: Account, ...errors(400, 403) } },
    handler: async (req) => {
      const id = scopedAccount(req, req.query.accountId);
      const a = await getAccount(ctx, id);
      if (!a) throw notFound('account', 'accountId', id);
      const counts = await readCounters(ctx.store.db, id);
      return {
        id: a.id,
        name: a.name,
        defaultElection: a.defaultElectionType && a.defaultElectionYear ? { electionType: a.defaultElectionType as z.infer<typeof Election>['electionType'], electionYear: a.defaultElectionYear } : null,
        contacts: Number(counts?.contacts ?? 0),
        donations: Number(counts?.donations ?? 0),
        createdAt: a.createdAt,
      };
    },
  });

  /* campaigns */
  r.get('/campaigns', {
    schema: { tags, summary: 'List campaigns with their totals', querystring: accountQuery, response: { 200: listOf(Campaign), ...errors(400, 403) } },
    handler: async (req) => ({ data: await listCampaigns(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.get('/campaigns/:id', {
    schema: { tags, summary: 'Read a campaign and its donation accounts', params: IdParams, querystring: accountQuery, response: { 200: Campaign, ...errors(400, 403, 404) } },
    handler: async (req) => requireCampaign(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/campaigns', {
    schema: { tags, summary: 'Create a campaign', body: CampaignCreate, response: { 201: Campaign, ...errors(400, 403, 404) } },
    handler: async (req, reply) => reply.code(201).send(await createCampaign(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/campaigns/:id', {
    schema: { tags, summary: 'Rename a campaign or replace its donation accounts (the list is sent whole)', params: IdParams, body: CampaignUpdate, response: { 200: Campaign, ...errors(400, 403, 404) } },
    handler: async (req) => updateCampaign(ctx, scopedAccount(req, req.body.accountId), req.params.id, { name: req.body.name, donationAccountIds: req.body.donationAccountIds }),
  });

  /* committees */
  r.get('/committees', {
    schema: { tags, summary: 'List committees', querystring: accountQuery, response: { 200: listOf(Committee), ...errors(400, 403) } },
    handler: async (req) => ({ data: await listCommittees(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.get('/committees/:id', {
    schema: { tags, summary: 'Read a committee', params: IdParams, querystring: accountQuery, response: { 200: Committee, ...errors(400, 403, 404) } },
    handler: async (req) => requireCommittee(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/committees', {
    schema: { tags, summary: 'Create a committee', body: CommitteeCreate, response: { 201: Committee, ...errors(400, 403) } },
    handler: async (req, reply) => reply.code(201).send(await createCommittee(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/committees/:id', {
    schema: { tags, summary: 'Rename a committee', params: IdParams, body: CommitteeUpdate, response: { 200: Committee, ...errors(400, 403, 404) } },
    handler: async (req) => updateCommittee(ctx, scopedAccount(req, req.body.accountId), req.params.id, { name: req.body.name }),
  });

  /* donation accounts */
  r.get('/donation-accounts', {
    schema: { tags, summary: 'List donation accounts and their contribution limits', querystring: accountQuery, response: { 200: listOf(DonationAccount), ...errors(400, 403) } },
    handler: async (req) => ({ data: await listDonationAccounts(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.get('/donation-accounts/:id', {
    schema: { tags, summary: 'Read a donation account and its limits', params: IdParams, querystring: accountQuery, response: { 200: DonationAccount, ...errors(400, 403, 404) } },
    handler: async (req) => requireDonationAccount(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/donation-accounts', {
    schema: { tags, summary: 'Create a donation account with limits (decimal dollars; null for none)', body: DonationAccountCreate, response: { 201: DonationAccount, ...errors(400, 403) } },
    handler: async (req, reply) =>
      reply.code(201).send(await createDonationAccount(ctx, { accountId: scopedAccount(req, req.body.accountId), name: req.body.name, ...req.body.limits })),
  });
  r.put('/donation-accounts/:id', {
    schema: { tags, summary: "Rename a donation account or change its limits", params: IdParams, body: DonationAccountUpdate, response: { 200: DonationAccount, ...errors(400, 403, 404) } },
    handler: async (req) => updateDonationAccountLimits(ctx, scopedAccount(req, req.body.accountId), req.params.id, { name: req.body.name, ...req.body.limits }),
  });

  /* custom field definitions */
  r.get('/custom-fields', {
    schema: { tags, summary: 'List custom field definitions (archived ones included, marked)', querystring: accountQuery, response: { 200: listOf(CustomFieldDefinition), ...errors(400, 403) } },
    handler: async (req) => ({ data: await listCustomFields(ctx.store.db, scopedAccount(req, req.query.accountId)) }),
  });
  r.post('/custom-fields', {
    schema: { tags, summary: 'Define a custom field', body: CustomFieldCreate, response: { 201: CustomFieldDefinition, ...errors(400, 403, 409) } },
    handler: async (req, reply) => reply.code(201).send(await createCustomField(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.post('/custom-fields/:id/actions', {
    schema: { tags, summary: 'Add or retire a pick-list option; archive or unarchive a field', params: IdParams, body: CustomFieldAction, response: { 200: CustomFieldDefinition, ...errors(400, 403, 404) } },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const field = (await listCustomFields(ctx.store.db, accountId)).find((f) => f.id === req.params.id);
      if (!field) throw notFound('custom field', 'id', req.params.id);
      const b = req.body;
      switch (b.action) {
        case 'addOption':
          return addCustomFieldOption(ctx, accountId, field.name, b.option);
        case 'retireOption':
          return retireCustomFieldOption(ctx, accountId, field.name, b.option);
        case 'archive':
          return archiveCustomField(ctx, accountId, field.name, true);
        case 'unarchive':
          return archiveCustomField(ctx, accountId, field.name, false);
      }
    },
  });

  /* elections */
  r.get('/elections', {
    schema: { tags, summary: "The account's election calendar", querystring: accountQuery, response: { 200: listOf(Election), ...errors(400, 403) } },
    handler: async (req) => ({ data: await listElections(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.post('/elections', {
    schema: { tags, summary: 'Add an election to the calendar', body: ElectionCreate, response: { 201: Election, ...errors(400, 403, 409) } },
    handler: async (req, reply) => reply.code(201).send(await createElection(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/elections/default', {
    schema: { tags, summary: "Set or clear the account's default election (D5)", body: DefaultElection, response: { 200: z.object({ accountId: z.string(), defaultElection: z.object({ electionType: z.string(), electionYear: z.number() }).nullable() }), ...errors(400, 403) } },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { electionType, electionYear } = req.body;
      if ((electionType === null) !== (electionYear === null)) {
        throw invalidField(electionType === null ? 'electionType' : 'electionYear', 'is required with the other (send both, or both null to clear)');
      }
      return setDefaultElection(ctx, accountId, electionType && electionYear ? { electionType, electionYear } : null);
    },
  });

  /* contribution-limit review queue (D6) */
  r.get('/flags', {
    schema: { tags, summary: 'Gifts flagged over a contribution limit', querystring: FlagListQuery, response: { 200: FlagList, ...errors(400, 403) } },
    handler: async (req) => ({ flagged: await listFlags(ctx, scopedAccount(req, req.query.accountId), req.query.state ?? 'open') }),
  });
  r.post('/flags/:id/actions', {
    schema: { tags, summary: 'Mark reviewed, refund, or redesignate a flagged gift', params: IdParams, body: FlagActionBody, response: { 200: Flag, ...errors(400, 403, 404, 409) } },
    handler: async (req) => resolveFlag(ctx, scopedAccount(req, req.body.accountId), req.params.id, req.body),
  });
  r.get('/donations/:id/history', {
    schema: { tags, summary: "A donation's history (flags and review actions)", params: IdParams, querystring: accountQuery, response: { 200: listOf(DonationHistoryEntry), ...errors(400, 403, 404) } },
    handler: async (req) => {
      await getDonation(ctx, scopedAccount(req, req.query.accountId), req.params.id);
      return { data: await donationHistory(ctx, req.params.id) };
    },
  });

  /* gift-entry batches */
  r.get('/batches', {
    schema: { tags, summary: 'List gift-entry batches, newest first, with their count and total', querystring: BatchListQuery, response: { 200: BatchList, ...errors(400, 403) } },
    handler: async (req) => {
      const limit = req.query.limit ?? 20;
      const offset = req.query.offset ?? 0;
      return { ...(await listBatches(ctx, scopedAccount(req, req.query.accountId), { limit, offset })), limit, offset };
    },
  });
  r.get('/batches/:id', {
    schema: { tags, summary: 'Read a batch: its defaults, expected and actual count and total', params: IdParams, querystring: accountQuery, response: { 200: Batch, ...errors(400, 403, 404) } },
    handler: async (req) => requireBatch(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.get('/batches/:id/donations', {
    schema: { tags, summary: "A batch's gifts in full, in the order they were typed", params: IdParams, querystring: z.object({ accountId: accountQuery.shape.accountId, ...pagingQuery }), response: { 200: BatchDonationList, ...errors(400, 403, 404) } },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.query.accountId);
      await requireBatch(ctx, accountId, req.params.id);
      const limit = req.query.limit ?? 20;
      const offset = req.query.offset ?? 0;
      return { ...(await listBatchDonations(ctx, accountId, req.params.id, { limit, offset })), limit, offset };
    },
  });
  r.post('/batches/:id/donations', {
    schema: {
      tags,
      summary: 'Record a gift typed in this batch; answers the gift in full and the batch with its new count and total',
      description: 'The same gift and the same rules as POST /v1/donations with `batchId`; the answer carries what gift entry shows, so the app reads nothing after a save. A closed batch: 409.',
      params: IdParams,
      body: DonationCreateBody,
      response: { 201: BatchGiftSaved, ...errors(400, 403, 404, 409, 413) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const created = await createDonation(ctx, { ...req.body, accountId }, { batchId: req.params.id });
      const [donation, batch] = await Promise.all([getDonation(ctx, accountId, created.id), requireBatch(ctx, accountId, req.params.id)]);
      return reply.code(201).send({ donation, batch });
    },
  });
  r.post('/batches', {
    schema: { tags, summary: 'Start a gift-entry batch', body: BatchCreate, response: { 201: Batch, ...errors(400, 403, 404) } },
    handler: async (req, reply) => reply.code(201).send(await createBatch(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/batches/:id', {
    schema: { tags, summary: 'Change a batch (only the fields sent; null clears); closed: true closes it to new gifts', params: IdParams, body: BatchUpdate, response: { 200: Batch, ...errors(400, 403, 404) } },
    handler: async (req) => updateBatch(ctx, scopedAccount(req, req.body.accountId), req.params.id, req.body),
  });

  /* statistics for the dashboard */
  r.get('/stats/donations', {
    schema: { tags, summary: 'Totals of completed gifts in a date range and/or batch: overall, by campaign, over time (UTC hours or days)', querystring: DonationStatsQuery, response: { 200: DonationStats, ...errors(400, 403, 404) } },
    handler: async (req) => donationStats(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });

  /* API keys */
  r.get('/api-keys', {
    schema: { tags, summary: "List the account's API keys (never their secrets)", querystring: accountQuery, response: { 200: listOf(ApiKey), ...errors(400, 403) } },
    handler: async (req) => ({ data: await listApiKeys(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.post('/api-keys', {
    schema: {
      tags,
      summary: 'Create an API key; the secret is shown this once. A browser-session key (from a one-time link) cannot create keys: 403.',
      body: ApiKeyCreate,
      response: { 201: ApiKeyCreated, ...errors(400, 403) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      if (req.auth?.session === 'browser') {
        // A browser tab's key lives in the page; a permanent key minted through it would
        // outlive the session. Keys are made in the desktop app or with `giftdesk key create`.
        throw new DomainError('forbidden', 'session_cannot_create_keys', 'A browser session cannot create API keys. Create keys in the desktop app or with: giftdesk key create --account <id>', [
          { field: 'X-API-Key', issue: 'is a browser-session key' },
        ]);
      }
      return reply.code(201).send(await createApiKey(ctx, accountId, req.body.label ?? null));
    },
  });
  r.delete('/api-keys/:id', {
    schema: { tags, summary: 'Revoke an API key', params: IdParams, querystring: accountQuery, response: { 200: ApiKeyRevoked, ...errors(400, 403, 404) } },
    handler: async (req) => revokeApiKey(ctx, req.params.id, scopedAccount(req, req.query.accountId)),
  });
}
