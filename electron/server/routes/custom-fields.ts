/**
 * GiftDesk extension routes (beside the spec's under /api/v1, never changing a spec route's
 * behaviour): custom field definitions: define, add or retire an option, archive.
 */
import { accountQuery } from '#shared/schemas/common.ts';
import { CustomFieldAction, CustomFieldCreate, CustomFieldDefinition } from '#shared/schemas/extensions.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addCustomFieldOption,
  archiveCustomField,
  createCustomField,
  listCustomFields,
  retireCustomFieldOption,
} from '../../domain/contacts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { notFound } from '../../domain/index.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors, listOf, tags } from './common.ts';

export async function customFieldRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* custom field definitions */
  r.get('/custom-fields', {
    schema: {
      tags,
      summary: 'List custom field definitions (archived ones included, marked)',
      querystring: accountQuery,
      response: { 200: listOf(CustomFieldDefinition), ...errors(400, 403) },
    },
    handler: async (req) => ({
      data: await listCustomFields(ctx.store.db, scopedAccount(req, req.query.accountId)),
    }),
  });
  r.post('/custom-fields', {
    schema: {
      tags,
      summary: 'Define a custom field',
      body: CustomFieldCreate,
      response: { 201: CustomFieldDefinition, ...errors(400, 403, 409) },
    },
    handler: async (req, reply) =>
      reply
        .code(201)
        .send(
          await createCustomField(ctx, { ...req.body, accountId: scopedAccount(req, req.body.accountId) }),
        ),
  });
  r.post('/custom-fields/:id/actions', {
    schema: {
      tags,
      summary: 'Add or retire a pick-list option; archive or unarchive a field',
      params: IdParams,
      body: CustomFieldAction,
      response: { 200: CustomFieldDefinition, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const field = (await listCustomFields(ctx.store.db, accountId)).find((f) => f.id === req.params.id);
      if (!field) throw notFound('custom field', 'id', req.params.id);
      const b = req.body;
      switch (b.action) {
        case 'addOption':
          return addCustomFieldOption(ctx, accountId, field.name, b.option);
        case 'retireOption':
          return retireCustomFieldOption(ctx, accountId, field.name, b.option);
        case 'archive':
          return archiveCustomField(ctx, accountId, field.name, true);
        case 'unarchive':
          return archiveCustomField(ctx, accountId, field.name, false);
      }
    },
  });
}
