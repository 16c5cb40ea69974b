/**
 * Pull from HQ and reference links over HTTP (GiftDesk extensions, for the app):
 *
 * - POST /sync/pull starts a pull in the background (202 with the run; 409 while one runs);
 *   GET /sync/pull shows the latest run: status, pages done of pages total, counts, notes.
 * - GET /sync/links lists local campaigns, committees and donation accounts with their HQ
 *   ids; POST /sync/links links one after HQ confirmed the id (a wrong id is a 400 saying so).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountQuery } from '../../../shared/schemas/common.ts';
import { LinkBody, LinkResult, PullRun, PullStartBody, PullStatus, ReferenceLinkList } from '../../../shared/schemas/sync-pull.ts';
import type { DomainContext } from '../../domain/context.ts';
import { DomainError } from '../../domain/errors.ts';
import { defaultClient } from '../../sync/engine.ts';
import type { RemoteClient } from '../../sync/http-client.ts';
import { beginPull, latestPull, runPull } from '../../sync/pull.ts';
import { linkReference, listReferenceLinks } from '../../sync/reference.ts';
import { loadRemoteConfig, type RemoteConfig } from '../../sync/remote-settings.ts';
import type { KeySource } from '../../sync/secret-box.ts';
import { scopedAccount } from '../scope.ts';
import { errors } from './common.ts';

const tags = ['Sync'];

/** What the pull routes need of the server's sync services. */
export interface SyncPullServices {
  keys: KeySource;
  /** The remote's client shared with the push engine (one pacer per remote); else one per remote here. */
  clientFor?: (cfg: RemoteConfig) => RemoteClient;
}

export async function syncPullRoutes(app: FastifyInstance, ctx: DomainContext, sync: SyncPullServices | undefined): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const own = new Map<string, RemoteClient>();
  const remoteFor = async (accountId: string): Promise<{ config: RemoteConfig; remote: RemoteClient }> => {
    if (!sync) throw new DomainError('conflict', 'sync_unavailable', 'This server cannot open the HQ secret (no key source): use giftdesk sync pull / link');
    const config = await loadRemoteConfig(ctx.store.db, sync.keys, accountId);
    if (!config) throw new DomainError('bad_request', 'sync_not_configured', `Sync to HQ is not configured for accountId ${accountId} (PUT /api/v1/sync/settings first)`, [{ field: 'accountId', issue: 'has no HQ settings' }]);
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
    schema: { tags, summary: "Start pulling HQ's contacts and reference data (runs in the background)", body: PullStartBody, response: { 202: PullRun, ...errors(400, 403, 409) } },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { config, remote } = await remoteFor(accountId);
      const begun = await beginPull(ctx, accountId);
      const stop = new AbortController();
      const done = runPull({ ctx, remote, accountId, remoteAccountId: config.remoteAccountId, emailMatch: config.emailMatch, signal: stop.signal }, begun.run, begun.nextOffset)
        .catch((err: unknown) => req.log.error({ err }, 'sync pull failed'))
        .finally(() => running.delete(accountId));
      running.set(accountId, { stop, done });
      return reply.code(202).send(begun.run);
    },
  });

  r.get('/sync/pull', {
    schema: { tags, summary: 'The latest pull from HQ: status, pages done of pages total, counts', querystring: accountQuery, response: { 200: PullStatus, ...errors(400, 403) } },
    handler: async (req) => ({ run: await latestPull(ctx.store.db, scopedAccount(req, req.query.accountId)) }),
  });

  r.get('/sync/links', {
    schema: { tags, summary: 'Local campaigns, committees and donation accounts with their HQ ids', querystring: accountQuery, response: { 200: ReferenceLinkList, ...errors(400, 403) } },
    handler: async (req) => ({ data: await listReferenceLinks(ctx, scopedAccount(req, req.query.accountId)) }),
  });

  r.post('/sync/links', {
    schema: { tags, summary: 'Link a local campaign, committee or donation account to its HQ id (checked at HQ)', body: LinkBody, response: { 200: LinkResult, ...errors(400, 403, 404, 409) } },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { config, remote } = await remoteFor(accountId);
      return linkReference(ctx, remote, { accountId, remoteAccountId: config.remoteAccountId, kind: req.body.kind, localId: req.body.localId, remoteId: req.body.remoteId });
    },
  });
}
