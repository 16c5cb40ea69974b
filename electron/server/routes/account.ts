/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): the account of a key, and its API keys (the secret only in the create answer).
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { LiveVersion } from '#shared/schemas/session.ts';
import {
  Account,
  ApiKey,
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyRevoked,
  Election,
} from '#shared/schemas/extensions.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createApiKey, getAccount, listApiKeys, revokeApiKey } from '../../domain/accounts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError, notFound, readCounters } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors, listOf, tags } from './common.ts';

export async function accountRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/account', {
    schema: {
      tags,
      summary: 'The account of this key, with its counts and the role the key acts in',
      querystring: accountQuery,
      response: { 200: Account, ...errors(400, 403) },
    },
    handler: async (req) => {
      const id = scopedAccount(req, req.query.accountId);
      const a = await getAccount(ctx, id);
      if (!a) throw notFound('account', 'accountId', id);
      const counts = await readCounters(ctx.store.db, id);
      return {
        id: a.id,
        name: a.name,
        defaultElection:
          a.defaultElectionType && a.defaultElectionYear
            ? {
                electionType: a.defaultElectionType as z.infer<typeof Election>['electionType'],
                electionYear: a.defaultElectionYear,
              }
            : null,
        contacts: Number(counts?.contacts ?? 0),
        donations: Number(counts?.donations ?? 0),
        createdAt: a.createdAt,
        role: req.auth!.role,
      };
    },
  });
  r.get('/live', {
    schema: {
      tags,
      summary:
        'Whether anyone else wrote since this key last asked (an open window reads again when it changed)',
      response: { 200: LiveVersion, ...errors() },
    },
    handler: async (req) => ({
      instance: ctx.store.changes.instance,
      version: ctx.store.changes.versionFor(req.auth?.keyId ?? null),
    }),
  });
  /* API keys */
  r.get('/api-keys', {
    schema: {
      tags,
      summary: "List the account's API keys (never their secrets)",
      querystring: accountQuery,
      response: { 200: listOf(ApiKey), ...errors(400, 403) },
    },
    handler: async (req) => ({ data: await listApiKeys(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.post('/api-keys', {
    schema: {
      tags,
      summary:
        'Create an API key; the secret is shown this once. A browser-session key (from a one-time link) cannot create keys: 403.',
      body: ApiKeyCreate,
      response: { 201: ApiKeyCreated, ...errors(400, 403) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      if (req.auth?.session === 'browser') {
        // A browser tab's key lives in the page; a permanent key minted through it would
        // outlive the session. Keys are made in the desktop app or with `giftdesk key create`.
        throw new DomainError(
          'forbidden',
          'session_cannot_create_keys',
          'A browser session cannot create API keys. Create keys in the desktop app or with: giftdesk key create --account <id>',
          [{ field: 'X-API-Key', issue: 'is a browser-session key' }],
        );
      }
      return reply
        .code(201)
        .send(await createApiKey(ctx, accountId, req.body.label ?? null, undefined, req.body.role));
    },
  });
  r.delete('/api-keys/:id', {
    schema: {
      tags,
      summary: 'Revoke an API key',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: ApiKeyRevoked, ...errors(400, 403, 404) },
    },
    handler: async (req) => revokeApiKey(ctx, req.params.id, scopedAccount(req, req.query.accountId)),
  });
}
