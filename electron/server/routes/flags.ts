/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): the contribution-limit review queue (D6), cash gifts over the cash limit, and a
 * gift's history of flags and actions, and the history another GiftDesk carries on to this one as HQ.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { DonationHistory, HistoryTrail, HistoryTrailResult } from '#shared/schemas/history.ts';
import { CashGiftList, Flag, FlagActionBody, FlagList, FlagListQuery } from '#shared/schemas/extensions.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listCashOverLimit } from '../../domain/donations/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { donationHistory, listFlags, resolveFlag, takeHistoryTrail } from '../../domain/limits/index.ts';
import { acting, scopedAccount } from '../scope.ts';
import { IdParams, errors, tags } from './common.ts';

export async function flagRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* contribution-limit review queue (D6) */
  r.get('/flags', {
    schema: {
      tags,
      summary: 'Gifts flagged over a contribution limit',
      querystring: FlagListQuery,
      response: { 200: FlagList, ...errors(400, 403) },
    },
    handler: async (req) => ({
      flagged: await listFlags(ctx, scopedAccount(req, req.query.accountId), req.query.state ?? 'open'),
    }),
  });
  r.get('/review/cash', {
    schema: {
      tags,
      summary: 'Completed cash gifts over the cash limit ($100), newest first, for Review',
      querystring: accountQuery,
      response: { 200: CashGiftList, ...errors(400, 403) },
    },
    handler: async (req) => listCashOverLimit(ctx, scopedAccount(req, req.query.accountId)),
  });
  r.post('/flags/:id/actions', {
    schema: {
      tags,
      summary: 'Mark reviewed, refund, or redesignate a flagged gift',
      params: IdParams,
      body: FlagActionBody,
      response: { 200: Flag, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) =>
      resolveFlag(acting(ctx, req), scopedAccount(req, req.body.accountId), req.params.id, req.body),
  });
  r.get('/donations/:id/history', {
    schema: {
      tags,
      summary: 'Who did what to a gift: who entered it, then each later change, oldest first',
      description:
        '`entered`: when the gift was entered and by whom (the person signed in, else the key; the station it was typed at). ' +
        '`data`: each later change — flagged, reviewed, refunded, redesignated, corrected, voided, thanked — with who made it ' +
        '(`by`; null when GiftDesk itself made it), the reason given (`note`), the fields it changed and each value before and after.',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: DonationHistory, ...errors(400, 403, 404) },
    },
    handler: async (req) => donationHistory(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
  r.post('/history', {
    schema: {
      tags,
      summary:
        'Take history made at an event or on a laptop, with the gifts and donors it belongs to (GiftDesk HQ)',
      description:
        "GiftDesk's sync sends it to a GiftDesk HQ after the records (never to an HQ of the donor API alone): each entry " +
        "belongs to a gift or donor by this HQ's id and says who made it there (the person, the station). An entry is " +
        'taken once by its `id`: sent again, it is counted in `known` and changes nothing. `entered` says who entered the ' +
        "gift (the gift's history shows it as `entered`). A record this account does not have is named in `unknown`.",
      body: HistoryTrail,
      response: { 200: HistoryTrailResult, ...errors(400, 403) },
    },
    handler: async (req) =>
      takeHistoryTrail(acting(ctx, req), scopedAccount(req, req.body.accountId), req.body),
  });
}
