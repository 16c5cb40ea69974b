/**
 * A station's event, for its own app and scripts (/api/v1/event…): what this GiftDesk is in
 * an event, joining one as a station (the app's Settings → Event; the CLI has `hub join`), and
 * the notices of contact edits another station's later change replaced (each marked read
 * by itself, or all at once: GET /event counts the unread ones). Scoped to the key's
 * account like every route; the join makes the event's account here (the hub's), so the app's
 * own session gets a key for it in the answer.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import {
  EventJoinBody,
  EventJoined,
  EventJoinProgress,
  EventStatus,
  HubNoticeList,
  NoticeSeen,
  NoticesSeen,
  NoticesSeenBody,
} from '#shared/schemas/hub.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createApiKey } from '../../domain/accounts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import type { HubServices } from '../../hub/index.ts';
import {
  countNotices,
  eventStatus,
  joinHub,
  joinProgressOf,
  type JoinResult,
  listNotices,
  replaceHub,
  markAllNoticesSeen,
  markNoticeSeen,
} from '../../sync/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors, IdParams } from './common.ts';
import type { SyncServices } from './sync.ts';

const tags = ['Event'];

export async function eventRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  sync: SyncServices | undefined,
  hub: HubServices | null = null,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.store.db;
  /** At the hub: whether this server serves the account's event now (the header says when not). */
  const withServing = async (accountId: string) => {
    const s = await eventStatus(db, accountId);
    if (s.role !== 'hub') return s;
    return { ...s, serving: hub?.hosting?.current()?.accountId === accountId };
  };

  r.get('/event', {
    schema: {
      tags,
      summary: 'What this GiftDesk is in an event: its hub, one of its stations, or neither',
      querystring: accountQuery,
      response: { 200: EventStatus, ...errors(400, 403) },
    },
    handler: async (req) => withServing(scopedAccount(req, req.query.accountId)),
  });

  r.post('/event/join', {
    schema: {
      tags,
      summary:
        'Join an event as a station: the hub’s address (or its join link), the pairing code, the certificate’s fingerprint (pinned) and this station’s name; with `replace`, a station whose hub was lost moves to this one and sends it everything typed here again',
      body: EventJoinBody,
      response: { 200: EventJoined, ...errors(400, 403, 409, 429, 502) },
    },
    handler: async (req) => {
      const auth = req.auth;
      scopedAccount(req, req.body.accountId);
      if (!sync)
        throw new DomainError(
          'conflict',
          'sync_unavailable',
          'This server cannot store a hub key (no key source): join with `giftdesk hub join`',
        );
      let replaced: { previousHubUrl: string; resent: number; donors: number } | null = null;
      let joined: JoinResult;
      if (req.body.replace) {
        const r = await replaceHub(ctx, sync.keys, req.body);
        replaced = { previousHubUrl: r.previousHubUrl, resent: r.resent, donors: r.donors };
        joined = r;
      } else joined = await joinHub(ctx, sync.keys, req.body);
      sync.scheduler?.kick();
      let session: { accountId: string; keyId: string; secret: string } | null = null;
      if (auth?.session && auth.accountId !== joined.accountId) {
        const key = await createApiKey(
          ctx,
          joined.accountId,
          `${auth.session} app (event)`,
          auth.session,
          auth.role,
        );
        session = { accountId: joined.accountId, keyId: key.keyId, secret: key.secret };
      }
      return { event: await eventStatus(db, joined.accountId), session, replaced };
    },
  });

  r.get('/event/join/progress', {
    schema: {
      tags,
      summary:
        'What the join under way here is doing: connecting, bringing the hub’s donors and gifts (so many of its whole), finishing',
      querystring: accountQuery,
      response: { 200: EventJoinProgress, ...errors(400, 403) },
    },
    handler: async (req) => {
      scopedAccount(req, req.query.accountId);
      const p = joinProgressOf(ctx.store);
      if (!p)
        return {
          joining: false,
          phase: null,
          startedAt: null,
          donors: 0,
          gifts: 0,
          donorsAtHub: null,
          giftsAtHub: null,
        };
      return { joining: p.phase !== 'done' && p.phase !== 'failed', ...p };
    },
  });

  r.get('/event/notices', {
    schema: {
      tags,
      summary: 'Contact edits of this station that a later change at another station replaced',
      querystring: accountQuery,
      response: { 200: HubNoticeList, ...errors(400, 403) },
    },
    handler: async (req) => ({ notices: await listNotices(db, scopedAccount(req, req.query.accountId)) }),
  });

  r.post('/event/notices/:id/seen', {
    schema: {
      tags,
      summary:
        'Marks one notice read: GET /event no longer counts it (it stays listed, with when it was read)',
      params: IdParams,
      body: NoticesSeenBody.optional(),
      response: { 200: NoticeSeen, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body?.accountId);
      if (!(await markNoticeSeen(db, accountId, req.params.id, ctx.now())))
        throw new DomainError('not_found', 'notice_not_found', `No notice ${req.params.id} in this account`, [
          { field: 'id', issue: 'is not a notice of this account' },
        ]);
      return { id: req.params.id, notices: await countNotices(db, accountId) };
    },
  });

  r.post('/event/notices/seen-all', {
    schema: {
      tags,
      summary: 'Marks every notice of the account read: GET /event counts none',
      body: NoticesSeenBody.optional(),
      response: { 200: NoticesSeen, ...errors(400, 403) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body?.accountId);
      const marked = await markAllNoticesSeen(db, accountId, ctx.now());
      return { marked, notices: await countNotices(db, accountId) };
    },
  });
}
