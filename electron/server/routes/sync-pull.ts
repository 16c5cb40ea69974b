/**
 * Pull from HQ and reference links over HTTP (GiftDesk extensions, for the app):
 *
 * - POST /sync/pull starts a pull in the background (202 with the run; 409 while one runs);
 *   GET /sync/pull shows the latest run: status, pages done of pages total, counts, notes.
 * - GET /sync/links lists local campaigns, committees and donation accounts with their HQ
 *   ids; POST /sync/links links one after HQ confirmed the id (a wrong id is a 400 saying so).
 * - GET /sync/links/candidates reads HQ's lists (where HQ has them) and offers, for each
 *   unlinked record, HQ's records of its kind with a suggestion by name; it links nothing.
 *   HQ unreachable or refusing is a 502 naming what went wrong.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import {
  LinkBody,
  LinkResult,
  PullRun,
  PullStartBody,
  PullStatus,
  ReferenceCandidates,
  ReferenceLinkList,
} from '#shared/schemas/sync-pull.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import type { KeySource, RemoteClient } from '../../sync/index.ts';
import {
  beginPull,
  defaultClient,
  latestPull,
  linkReference,
  listReferenceLinks,
  loadRemoteConfig,
  referenceCandidates,
  runPull,
  type RemoteConfig,
} from '../../sync/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors } from './common.ts';

const tags = ['Sync'];

/** What the pull routes need of the server's sync services. */
export interface SyncPullServices {
  keys: KeySource;
  /** The remote's client shared with the push engine (one pacer per remote); else one per remote here. */
  clientFor?: (cfg: RemoteConfig) => RemoteClient;
}

export async function syncPullRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  sync: SyncPullServices | undefined,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const own = new Map<string, RemoteClient>();
  const remoteFor = async (accountId: string): Promise<{ config: RemoteConfig; remote: RemoteClient }> => {
    if (!sync)
      throw new DomainError(
        'conflict',
        'sync_unavailable',
        'This server cannot open the HQ secret (no key source): use giftdesk sync pull / link',
      );
    const config = await loadRemoteConfig(ctx.store.db, sync.keys, accountId);
    if (!config)
      throw new DomainError(
        'bad_request',
        'sync_not_configured',
        `Sync to HQ is not configured for accountId ${accountId} (PUT /api/v1/sync/settings first)`,
        [{ field: 'accountId', issue: 'has no HQ settings' }],
      );
    if (sync.clientFor) return { config, remote: sync.clientFor(config) };
    const key = `${config.baseUrl}\n${config.keyId}\n${config.secret}\n${config.ratePerSecond}`;
    let remote = own.get(key);
    if (!remote) {
      remote = defaultClient(config);
      own.set(key, remote);
    }
    return { config, remote };
  };
  const running = new Map<string, { stop: AbortController; done: Promise<unknown> }>();
  app.addHook('onClose', async () => {
    for (const p of running.values()) p.stop.abort();
    await Promise.allSettled([...running.values()].map((p) => p.done));
  });

  r.post('/sync/pull', {
    schema: {
      tags,
      summary: "Start pulling HQ's contacts and reference data (runs in the background)",
      body: PullStartBody,
      response: { 202: PullRun, ...errors(400, 403, 409) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { config, remote } = await remoteFor(accountId);
      const begun = await beginPull(ctx, accountId);
      const stop = new AbortController();
      const done = runPull(
        {
          ctx,
          remote,
          accountId,
          remoteAccountId: config.remoteAccountId,
          emailMatch: config.emailMatch,
          signal: stop.signal,
        },
        begun.run,
        begun.nextOffset,
      )
        .catch((err: unknown) => req.log.error({ err }, 'sync pull failed'))
        .finally(() => running.delete(accountId));
      running.set(accountId, { stop, done });
      return reply.code(202).send(begun.run);
    },
  });

  r.get('/sync/pull', {
    schema: {
      tags,
      summary: 'The latest pull from HQ: status, pages done of pages total, counts',
      querystring: accountQuery,
      response: { 200: PullStatus, ...errors(400, 403) },
    },
    handler: async (req) => ({
      run: await latestPull(ctx.store.db, scopedAccount(req, req.query.accountId)),
    }),
  });

  r.get('/sync/links', {
    schema: {
      tags,
      summary: 'Local campaigns, committees and donation accounts with their HQ ids',
      querystring: accountQuery,
      response: { 200: ReferenceLinkList, ...errors(400, 403) },
    },
    handler: async (req) => ({
      data: await listReferenceLinks(ctx, scopedAccount(req, req.query.accountId)),
    }),
  });

  r.get('/sync/links/candidates', {
    schema: {
      tags,
      summary:
        "HQ's campaigns, committees and donation accounts to link each unlinked local one to, with a suggestion by name (links nothing)",
      description:
        "For every local campaign, committee and donation account without an HQ id: HQ's records of its kind (read from HQ's GET /campaigns, /committees, /donation-accounts, only for kinds with unlinked records), each marked with the local record already linked to it, and a suggested one where exactly one HQ record has the same name (case and accents aside) and no other local record has it or its name. A kind HQ does not list comes back with listed=false (type HQ's id instead). Link the chosen one with POST /sync/links (checked at HQ). 502 when HQ cannot be reached, refuses the key or answers something else than a list.",
      querystring: accountQuery,
      response: { 200: ReferenceCandidates, ...errors(400, 403, 409, 502) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const { config, remote } = await remoteFor(accountId);
      return referenceCandidates(ctx, remote, { accountId, remoteAccountId: config.remoteAccountId });
    },
  });

  r.post('/sync/links', {
    schema: {
      tags,
      summary: 'Link a local campaign, committee or donation account to its HQ id (checked at HQ)',
      body: LinkBody,
      response: { 200: LinkResult, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { config, remote } = await remoteFor(accountId);
      return linkReference(ctx, remote, {
        accountId,
        remoteAccountId: config.remoteAccountId,
        kind: req.body.kind,
        localId: req.body.localId,
        remoteId: req.body.remoteId,
      });
    },
  });
}
