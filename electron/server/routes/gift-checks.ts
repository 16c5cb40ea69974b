/**
 * GET /v1/contacts/{id}/gift-check (GiftDesk extension): the donor's room under a donation
 * account's limits and their total for the gift's year, so the gift-entry row can warn
 * while a gift is typed. Read-only; a gift over a limit is still saved and flagged (D6).
 */
import { GiftCheck, GiftCheckQuery } from '#shared/schemas/gift-checks.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { giftCheck } from '../../domain/donations/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors } from './common.ts';

export async function giftCheckRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/contacts/:id/gift-check', {
    schema: {
      tags: ['Extensions'],
      summary:
        "Before saving a gift: the donor's room under each limit of a donation account (D5's election) and their total for the gift's year",
      params: IdParams,
      querystring: GiftCheckQuery,
      response: { 200: GiftCheck, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const q = req.query;
      return giftCheck(ctx, {
        accountId: scopedAccount(req, q.accountId),
        contactId: req.params.id,
        donationDate: q.donationDate,
        donationAccountId: q.donationAccountId,
        electionType: q.electionType,
        electionYear: q.electionYear,
      });
    },
  });
}
