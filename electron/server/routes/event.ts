/**
 * A station's event, for its own app and scripts (/api/v1/event…): what this GiftDesk is in
 * an event, joining one as a station (the app's Settings → Event; the CLI has `hub join`), and
 * the notices of contact edits another station's later change replaced. Scoped to the key's
 * account like every route; the join makes the event's account here (the hub's), so the app's
 * own session gets a key for it in the answer.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { EventJoinBody, EventJoined, EventStatus, HubNoticeList } from '#shared/schemas/hub.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createApiKey } from '../../domain/accounts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import { eventStatus, joinHub, listNotices } from '../../sync/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors } from './common.ts';
import type { SyncServices } from './sync.ts';

const tags = ['Event'];

export async function eventRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  sync: SyncServices | undefined,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.store.db;

  r.get('/event', {
    schema: {
      tags,
      summary: 'What this GiftDesk is in an event: its hub, one of its stations, or neither',
      querystring: accountQuery,
      response: { 200: EventStatus, ...errors(400, 403) },
    },
    handler: async (req) => eventStatus(db, scopedAccount(req, req.query.accountId)),
  });

  r.post('/event/join', {
    schema: {
      tags,
      summary:
        'Join an event as a station: the hub’s address (or its join link), the pairing code, the certificate’s fingerprint (pinned) and this station’s name',
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
      const joined = await joinHub(ctx, sync.keys, req.body);
      sync.scheduler?.kick();
      let session: { accountId: string; keyId: string; secret: string } | null = null;
      if (auth?.session && auth.accountId !== joined.accountId) {
        const key = await createApiKey(ctx, joined.accountId, `${auth.session} app (event)`, auth.session);
        session = { accountId: joined.accountId, keyId: key.keyId, secret: key.secret };
      }
      return { event: await eventStatus(db, joined.accountId), session };
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
}
