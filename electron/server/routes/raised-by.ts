/**
 * GiftDesk extension routes for soft credit and bundling: what each host raised in a scope
 * (JSON and CSV), and a contact's credits and what they raised. Read-only; the gifts' fields
 * themselves (onBehalfOfContactId, facilitatedByContactId, isRecurring) are the donor API's.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { CsvText } from '#shared/schemas/imports.ts';
import { ContactCredits, RaisedByQuery, RaisedByReport } from '#shared/schemas/raised-by.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactCredits, raisedByReport } from '../../domain/donations/index.ts';
import { csvLine } from '../../domain/import-export/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors, tags } from './common.ts';

const SCOPE =
  'Completed gifts naming the host as facilitatedByContactId, in the scope: startDate and endDate (inclusive, on ' +
  'donationDate; a date-only endDate covers that whole UTC day), campaignId, batchId — any together, none for the ' +
  'whole account. Per host: count, total (dollars) and donors (distinct legal donors); largest total first.';

/** The report as CSV rows: host, count, total, donors. */
function reportCsv(report: RaisedByReport): string {
  return [
    csvLine(['contactId', 'firstName', 'lastName', 'organization', 'count', 'total', 'donors']),
    ...report.hosts.map((h) =>
      csvLine([h.contactId, h.firstName, h.lastName, h.organization, h.count, h.total.toFixed(2), h.donors]),
    ),
  ].join('');
}

export async function raisedByRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/reports/raised-by', {
    schema: {
      tags,
      summary: 'What each host (bundler) raised: count, total and donors',
      description: SCOPE,
      querystring: RaisedByQuery,
      response: { 200: RaisedByReport, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      raisedByReport(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });

  r.get('/reports/raised-by.csv', {
    schema: {
      tags,
      summary: 'What each host (bundler) raised, as CSV: contactId, names, count, total, donors',
      description: SCOPE,
      produces: ['text/csv'],
      querystring: RaisedByQuery,
      response: { 200: CsvText, ...errors(400, 403, 404) },
    },
    handler: async (req, reply) => {
      const report = await raisedByReport(ctx, {
        ...req.query,
        accountId: scopedAccount(req, req.query.accountId),
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="raised-by.csv"')
        .send(reportCsv(report));
    },
  });

  r.get('/contacts/:id/credits', {
    schema: {
      tags,
      summary:
        "A contact's soft credits (gifts credited to them, another contact the legal donor) and what they raised as a host",
      description:
        'A credit is never counted in the contact’s own totals or contribution limits: those stay the legal donor’s. ' +
        'credits: newest first, at most 100; creditCount and creditTotal (completed gifts) cover them all.',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: ContactCredits, ...errors(400, 403, 404) },
    },
    handler: async (req) => contactCredits(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
}
