/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): statistics for the dashboard.
 */
import { DonationStats, DonationStatsQuery } from '#shared/schemas/stats.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { donationStats } from '../../domain/donations/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors, tags } from './common.ts';

export async function statsRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* statistics for the dashboard */
  r.get('/stats/donations', {
    schema: {
      tags,
      summary:
        'Totals of completed gifts in a date range and/or batch: overall, by campaign, over time (UTC hours or days)',
      querystring: DonationStatsQuery,
      response: { 200: DonationStats, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      donationStats(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });
}
