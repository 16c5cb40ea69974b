import { accountQuery } from '#shared/schemas/common.ts';
import {
  Contact,
  ContactCreateRequest,
  ContactDeleted,
  ContactList,
  ContactListQuery,
  ContactUpdateBody,
  SpecContactListQuery,
} from '#shared/schemas/contacts.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createContactOnce,
  deleteContact,
  getContact,
  listContacts,
  retireContactReference,
  updateContact,
} from '../../domain/contacts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import { referenceFor, referenceTagOwner } from '#shared/sync-reference.ts';
import { acting, scopedAccount } from '../scope.ts';
import { mayBeUpstream } from './resent.ts';
import { IdParams, errors } from './common.ts';

const tags = ['Contacts'];

/**
 * `specOnly` (`giftdesk serve --spec-only`): the routes as the donor API documents them — no
 * create-once by a `gd:` tag (a re-posted contact is a second contact), no same-donor rule,
 * no `relevance` sort.
 */
export async function contactRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  opts: { specOnly?: boolean } = {},
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const specOnly = opts.specOnly === true;

  r.get('/contacts', {
    schema: {
      tags,
      summary: 'List and search contacts',
      description:
        'search: words and word prefixes over name, email and organization, case- and accent-insensitive; the whole text also ' +
        'matches a full name (either order), email, phone digits or organization exactly. ' +
        'sortBy: createdAt (default), firstName, lastName, email, or relevance: exact matches of the whole text first, then ' +
        'contacts with every word as a whole word, then word-prefix matches; the most recent last gift first within each of ' +
        'these (contacts who never gave last). sortOrder (default desc) does not apply to relevance; without search, ' +
        'relevance is last-gift order.',
      querystring: specOnly ? SpecContactListQuery : ContactListQuery,
      response: { 200: ContactList, ...errors(400, 403) },
    },
    handler: async (req) =>
      listContacts(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });

  r.get('/contacts/:id', {
    schema: {
      tags,
      summary: 'Read a contact',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: Contact, ...errors(400, 403, 404) },
    },
    handler: async (req) => getContact(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });

  r.post('/contacts', {
    schema: {
      tags,
      summary: 'Create a contact',
      description:
        'GiftDesk creates a contact once per sync reference: when its tags carry a GiftDesk reference (a tag `gd:` then ' +
        'an id; the last such tag counts) and the account already holds a contact created with it, the answer is 200 ' +
        'with that contact, and nothing is written. At an event hub, the same holds for a station creating a donor the ' +
        'account has already (same primary email, case aside, and same first and last name, accents and case aside). ' +
        "Otherwise 201. (A contact typed in GiftDesk's own window is not read for a reference.) `entryKey`: a key the " +
        'client mints for the contact a form tries to save and sends again with each try of it; a key the account holds ' +
        'answers 200 with the contact saved with it, and nothing is written.',
      body: ContactCreateRequest,
      response: { 201: Contact, 200: Contact, ...errors(400, 403, 409, 413) },
    },
    handler: async (req, reply) => {
      const { resentSince, entryKey, ...input } = req.body;
      const accountId = scopedAccount(req, input.accountId);
      // A contact typed in the app's window carries no sync reference (WriteOptions). At an
      // event hub, a station creating a donor the event has already (same primary email and
      // name, typed at another station) gets that donor: 200, nothing written.
      const { contact, created } = await createContactOnce(
        acting(ctx, req),
        { ...input, accountId },
        specOnly
          ? { syncReference: false }
          : {
              syncReference: !req.auth?.session,
              sameDonor: Boolean(req.station),
              ...(entryKey !== undefined ? { entryKey } : {}),
              ...mayBeUpstream(ctx, 'contact', resentSince),
            },
      );
      return reply.code(created ? 201 : 200).send(contact);
    },
  });

  r.put('/contacts/:id', {
    schema: {
      tags,
      summary: 'Update a contact (only sent fields change)',
      params: IdParams,
      body: ContactUpdateBody,
      response: { 200: Contact, ...errors(400, 403, 404, 413) },
    },
    handler: async (req) =>
      updateContact(
        acting(ctx, req),
        scopedAccount(req, req.body.accountId ?? undefined),
        req.params.id,
        req.body,
      ),
  });

  r.delete('/contacts/:id', {
    schema: {
      tags,
      summary: 'Delete a contact and everything attached to it',
      description:
        "At an event hub, a station's key deletes only a donor whose gifts were all typed at that station: a donor " +
        'with a gift typed at another station or at the hub is a 409 `donor_has_other_gifts` naming how many, and ' +
        'nothing is deleted. GiftDesk extension: an id `gd:<id>` names the contact created with that sync reference, ' +
        'and retires the reference: that contact, if there is one, is deleted as above, and a create carrying the ' +
        'reference afterwards is a 409 `reference_retired` that creates nothing. When no contact holds it the answer ' +
        'is 404 `contact_not_found`, and the reference is retired all the same. A GiftDesk sends it for a contact ' +
        'deleted while its create had no answer, so that the create, should it land late, creates nothing.',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: ContactDeleted, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.query.accountId);
      const opts = { onlyStation: req.station?.id };
      // `gd:<id>`: the contact created with that sync reference, and the reference retired.
      const owner = specOnly ? null : referenceTagOwner(req.params.id);
      if (owner === null) return deleteContact(ctx, accountId, req.params.id, opts);
      const reference = referenceFor(owner);
      const deleted = await retireContactReference(ctx, accountId, reference, opts);
      if (deleted === null)
        throw new DomainError(
          'not_found',
          'contact_not_found',
          `No contact was created with reference ${reference}; the reference is retired, so a create carrying it creates nothing from now on`,
          [{ field: 'id', issue: 'names no contact of this account' }],
        );
      return { message: `Contact ${deleted} deleted; reference ${reference} retired` };
    },
  });
}
