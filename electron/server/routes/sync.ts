/**
 * Sync to HQ, as extension routes (/api/v1/sync/…): settings (the secret goes in, never
 * out; tried at HQ first when asked: connection-check.ts), status, the needs-attention list with retry and discard, "sync now", and one record's
 * sync state. Scoped to the key's account like every route.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import {
  SyncActionBody,
  SyncAttentionList,
  SyncItemParams,
  SyncRecordState,
  SyncRunResult,
  SyncSettings,
  SyncSettingsBody,
  SyncStatus,
} from '#shared/schemas/sync.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError, invalidField } from '../../domain/index.ts';
import type { KeySource, SyncScheduler } from '../../sync/index.ts';
import {
  checkConnection,
  discardItem,
  getRemoteSettings,
  listAttention,
  loadRemoteConfig,
  normaliseBaseUrl,
  recordSyncState,
  retryItem,
  saveRemoteSettings,
  syncStatus,
} from '../../sync/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors } from './common.ts';

const tags = ['Sync'];

/** What the server knows of sync: where the secret's key lives, and the scheduler when this process runs one. */
export interface SyncServices {
  keys: KeySource;
  scheduler?: SyncScheduler | null;
}

export async function syncRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  sync: SyncServices | undefined,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.store.db;

  const settingsView = (s: NonNullable<Awaited<ReturnType<typeof getRemoteSettings>>>) => ({
    accountId: s.accountId,
    baseUrl: s.baseUrl,
    keyId: s.keyId,
    remoteAccountId: s.remoteAccountId,
    ratePerSecond: s.ratePerSecond,
    scheduleSeconds: s.scheduleSeconds,
    emailMatch: s.emailMatch,
    hasSecret: s.hasSecret,
  });

  r.get('/sync/settings', {
    schema: {
      tags,
      summary: 'Where this account syncs to (never the secret)',
      querystring: accountQuery,
      response: { 200: SyncSettings, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const s = await getRemoteSettings(db, accountId);
      if (!s)
        throw new DomainError(
          'not_found',
          'sync_not_configured',
          'Sync to HQ is not configured for this account',
          [{ field: 'accountId', issue: 'has no HQ settings' }],
        );
      return settingsView(s);
    },
  });

  r.put('/sync/settings', {
    schema: {
      tags,
      summary:
        'Configure sync to HQ (the secret is stored encrypted and never returned); with testConnection, only once HQ answers and takes the key',
      body: SyncSettingsBody,
      response: { 200: SyncSettings, ...errors(400, 403, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      if (!sync)
        throw new DomainError(
          'conflict',
          'sync_unavailable',
          'This server cannot store an HQ secret (no key source): configure sync with `giftdesk sync configure`',
        );
      const { accountId: _a, testConnection, ...rest } = req.body;
      if (testConnection) {
        const secret = rest.secret ?? (await loadRemoteConfig(db, sync.keys, accountId))?.secret;
        if (!secret) throw invalidField('secret', 'is required the first time sync is configured');
        const check = await checkConnection({
          baseUrl: normaliseBaseUrl(rest.baseUrl),
          keyId: rest.keyId,
          secret,
          remoteAccountId: rest.remoteAccountId,
        });
        if (!check.ok)
          throw new DomainError(
            'bad_request',
            'hq_connection_failed',
            `${check.field} was not confirmed by HQ, so nothing was saved: ${check.problem}`,
            [{ field: check.field, issue: check.problem }],
          );
      }
      const s = await saveRemoteSettings(ctx.store, sync.keys, { ...rest, accountId }, ctx.now());
      sync.scheduler?.kick();
      return settingsView(s);
    },
  });

  r.get('/sync/status', {
    schema: {
      tags,
      summary: 'Queue counts, last success, pause, current rate, failures',
      querystring: accountQuery,
      response: { 200: SyncStatus, ...errors(400, 403) },
    },
    handler: async (req) =>
      syncStatus(db, scopedAccount(req, req.query.accountId), sync?.scheduler?.running ?? false),
  });

  r.get('/sync/attention', {
    schema: {
      tags,
      summary: 'Records that need a person, with the reason',
      querystring: accountQuery,
      response: { 200: SyncAttentionList, ...errors(400, 403) },
    },
    handler: async (req) => ({ data: await listAttention(db, scopedAccount(req, req.query.accountId)) }),
  });

  r.post('/sync/items/:entityType/:id/retry', {
    schema: {
      tags,
      summary: 'Retry a record that needs attention (after an edit, or to confirm what the reason asks)',
      params: SyncItemParams,
      body: SyncActionBody,
      response: { 200: SyncRecordState, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      await retryItem(ctx.store, accountId, req.params.entityType, req.params.id, ctx.now());
      sync?.scheduler?.kick();
      return recordSyncState(db, req.params.entityType, req.params.id);
    },
  });

  r.post('/sync/items/:entityType/:id/discard', {
    schema: {
      tags,
      summary: "Discard a record's unsent changes (HQ keeps what it has)",
      params: SyncItemParams,
      body: SyncActionBody,
      response: { 200: SyncRecordState, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      await discardItem(ctx.store, accountId, req.params.entityType, req.params.id, ctx.now());
      return recordSyncState(db, req.params.entityType, req.params.id);
    },
  });

  r.get('/sync/records/:entityType/:id', {
    schema: {
      tags,
      summary: "One record's sync state (and why a gift is read-only)",
      params: SyncItemParams,
      querystring: accountQuery,
      response: { 200: SyncRecordState, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const table = req.params.entityType === 'contact' ? 'contacts' : 'donations';
      const exists = await db
        .selectFrom(table)
        .select('id')
        .where('id', '=', req.params.id)
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      const item = await db
        .selectFrom('syncItems')
        .select('accountId')
        .where('entityType', '=', req.params.entityType)
        .where('entityId', '=', req.params.id)
        .executeTakeFirst();
      if (!exists && item?.accountId !== accountId)
        throw new DomainError(
          'not_found',
          `${req.params.entityType}_not_found`,
          `No ${req.params.entityType} ${req.params.id} in this account`,
          [{ field: 'id', issue: 'does not exist in this account' }],
        );
      return recordSyncState(db, req.params.entityType, req.params.id);
    },
  });

  r.post('/sync/run', {
    schema: {
      tags,
      summary: 'Sync now: one pass for this account, answered when it ends',
      body: SyncActionBody,
      response: { 200: SyncRunResult, ...errors(400, 403, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      if (!(await getRemoteSettings(db, accountId)))
        throw new DomainError(
          'conflict',
          'sync_not_configured',
          'Sync to HQ is not configured for this account: PUT /api/v1/sync/settings first',
        );
      if (!sync?.scheduler)
        throw new DomainError(
          'conflict',
          'sync_not_running',
          'This server does not run sync (run it with `giftdesk sync run`, or start `giftdesk serve` with HQ settings)',
        );
      const result = await sync.scheduler.runNow(accountId);
      const mine = result.accounts.find((a) => a.accountId === accountId);
      return {
        ran: result.ran,
        requests: mine?.requests ?? 0,
        parked: mine?.parked ?? 0,
        failed: mine?.failed ?? 0,
        stopped: result.ran
          ? (mine?.stopped ?? null)
          : 'another process holds the sync lease (the app or another giftdesk serve): it is syncing this database',
        status: await syncStatus(db, accountId, sync.scheduler.running),
      };
    },
  });
}
