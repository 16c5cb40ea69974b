/**
 * Extension routes for the app's contact screen (beyond the spec): a sortable, searchable
 * list of contact summaries with giving totals, a contact's giving history, and what
 * deleting a contact would take with it. Same auth, errors and OpenAPI as every route.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { ContactHistory } from '#shared/schemas/history.ts';
import {
  ContactDeletePreview,
  ContactDonationList,
  ContactDonationsQuery,
  ContactSummaryList,
  ContactSummaryQuery,
} from '#shared/schemas/contact-views.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contactDeletePreview,
  contactHistory,
  listContactDonations,
  listContactSummaries,
} from '../../domain/contacts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors } from './common.ts';

const tags = ['Extensions'];

export async function contactViewRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/contact-summaries', {
    schema: {
      tags,
      summary:
        'Contacts with their giving totals: search, sort by name, last gift, total given or creation, page',
      description:
        'search: words and word prefixes over name, email and organization, case- and accent-insensitive; the whole text also ' +
        'matches a full name (either order), email, phone digits or organization exactly. ' +
        'sortBy: relevance (the default with search: exact matches of the whole text first, then contacts with every word as a ' +
        'whole word, then word-prefix matches; the most recent last gift first within each, never gave last; sortOrder does not ' +
        'apply), name (last, then first; the default without search), lastDonationDate, totalDonations, createdAt. ' +
        'sortOrder defaults to asc for name and desc for the others; contacts who never gave sort first ascending and last descending by lastDonationDate. ' +
        'total=false leaves total out of the answer (for a caller that never shows it): by relevance, the whole match set is then ' +
        'only counted when the page reaches its word-prefix matches.',
      querystring: ContactSummaryQuery,
      response: { 200: ContactSummaryList, ...errors(400, 403) },
    },
    handler: async (req) =>
      listContactSummaries(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });

  r.get('/contacts/:id/donations', {
    schema: {
      tags,
      summary: "A contact's gifts, newest first, with the totals of their whole giving history",
      params: IdParams,
      querystring: ContactDonationsQuery,
      response: { 200: ContactDonationList, ...errors(400, 403, 404) },
    },
    handler: async (req) =>
      listContactDonations(ctx, scopedAccount(req, req.query.accountId), req.params.id, req.query),
  });

  r.get('/contacts/:id/delete-preview', {
    schema: {
      tags,
      summary: 'What deleting this contact would remove: the count and sum of their gifts',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: ContactDeletePreview, ...errors(400, 403, 404) },
    },
    handler: async (req) => contactDeletePreview(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });

  r.get('/contacts/:id/history', {
    schema: {
      tags,
      summary: 'Who did what to a donor: each change (created, edited, merged), oldest first',
      description:
        'Each entry says who made the change (`by`: the person signed in, else the key, and the station; null when GiftDesk ' +
        "itself made it), when, the fields sent and each changed value before and after. A gift's own history is " +
        'GET /v1/donations/{id}/history.',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: ContactHistory, ...errors(400, 403, 404) },
    },
    handler: async (req) => contactHistory(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });
}
