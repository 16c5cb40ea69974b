/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): the account's election calendar and its default election (D5).
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { DefaultElection, Election, ElectionCreate } from '#shared/schemas/extensions.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainContext } from '../../domain/index.ts';
import { invalidField } from '../../domain/index.ts';
import { createElection, listElections, setDefaultElection } from '../../domain/limits/index.ts';
import { scopedAccount } from '../scope.ts';
import { errors, listOf, tags } from './common.ts';

export async function electionRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* elections */
  r.get('/elections', {
    schema: {
      tags,
      summary: "The account's election calendar",
      querystring: accountQuery,
      response: { 200: listOf(Election), ...errors(400, 403) },
    },
    handler: async (req) => ({ data: await listElections(ctx, scopedAccount(req, req.query.accountId)) }),
  });
  r.post('/elections', {
    schema: {
      tags,
      summary: 'Add an election to the calendar',
      body: ElectionCreate,
      response: { 201: Election, ...errors(400, 403, 409) },
    },
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(await createElection(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) })),
  });
  r.put('/elections/default', {
    schema: {
      tags,
      summary: "Set or clear the account's default election (D5)",
      body: DefaultElection,
      response: {
        200: z.object({
          accountId: z.string(),
          defaultElection: z.object({ electionType: z.string(), electionYear: z.number() }).nullable(),
        }),
        ...errors(400, 403),
      },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { electionType, electionYear } = req.body;
      if ((electionType === null) !== (electionYear === null)) {
        throw invalidField(
          electionType === null ? 'electionType' : 'electionYear',
          'is required with the other (send both, or both null to clear)',
        );
      }
      return setDefaultElection(
        ctx,
        accountId,
        electionType && electionYear ? { electionType, electionYear } : null,
      );
    },
  });
}
