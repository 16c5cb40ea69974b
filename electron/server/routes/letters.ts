/**
 * Letters, receipts and year-end statements (GiftDesk extension), and the route a GiftDesk HQ
 * or event hub takes thank-you marks on (the donor API has no donation update).
 */
import { ThankYouMarks, ThankYouMarksResult } from '#shared/schemas/letters.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { takeThankYouMarks } from '../../domain/donations/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors, tags } from './common.ts';

export async function letterRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/donations/thank-you', {
    schema: {
      tags,
      summary: 'Mark gifts thanked, by id (GiftDesk extension)',
      description:
        'How another GiftDesk sends thank-you marks set after a gift reached this one (the donor API cannot change a gift). ' +
        "Sets `thankYouSent` and `thankYouSentDate` on the account's gifts named; a gift already marked keeps its first date " +
        'and is not counted, so sending the same marks again is harmless. Ids that are no gift of the account come back in ' +
        '`unknown`. A server without this route (404 or 405) takes no marks: the sender keeps them and says so.',
      body: ThankYouMarks,
      response: { 200: ThankYouMarksResult, ...errors(400, 403) },
    },
    handler: async (req) =>
      takeThankYouMarks(ctx, scopedAccount(req, req.body.accountId), req.body.donations),
  });
}
