/**
 * Prepare for a contact (prepare.ts has the transaction, prepare-step.ts how a step is
 * written): its create (after the email match, unless another create of that email is still
 * unconfirmed), its update of the changed fields, its delete (parked for a person's word first
 * when HQ has gifts of it), or parked when it is not linked to HQ's contact. A contact deleted
 * after a create of it went out unanswered has its reference retired at a GiftDesk remote
 * (`DELETE /contacts/gd:<id>`, domain/contacts/retire.ts), so that create cannot land later.
 */
import type { Contact } from '#shared/schemas/contacts.ts';
import type { Db } from '../../db/store.ts';
import { getContact } from '../../domain/contacts/index.ts';
import type { DomainContext } from '../../domain/context.ts';
import { isDomainError } from '../../domain/errors.ts';
import { codeOf, unconfirmedContactCreates } from '../outbox/items.ts';
import { coalesce } from './coalesce.ts';
import { contactCreateBody, contactUpdateBody } from './payloads.ts';
import { type Preparing, type Step, withResentSince } from './prepare-step.ts';
import { identityOf } from './sync-identity.ts';
import { REFERENCE_PREFIX, RETIRE_EXTENSION, referenceFor } from '#shared/sync-reference.ts';

/** The path of a reference's retirement at a GiftDesk remote (domain/contacts/retire.ts there). */
export const retirementPath = (reference: string): string => `/contacts/${encodeURIComponent(reference)}`;

/** Whether a request is a reference's retirement. */
export const isRetirement = (step: { op: string; path: string }): boolean =>
  step.op === 'delete' && step.path.startsWith(retirementPath(REFERENCE_PREFIX));

/**
 * The contact's next step. `emailMatch`: its create may first be matched by email (prepare's
 * input; the settings' `emailMatch` must allow it too).
 */
export async function prepareContact(x: Preparing, ctx: DomainContext, emailMatch: boolean): Promise<Step> {
  const { trx, cfg, record: e, item, remoteId } = x;
  let contact: Contact | null = null;
  try {
    contact = await getContact(ctx, cfg.accountId, e.entityId, trx);
  } catch (err) {
    if (!isDomainError(err)) throw err;
  }
  let plan = coalesce(x.changes, { exists: contact !== null, hasRemote: remoteId !== null });
  if (!plan) return { kind: 'done' };
  if (plan.kind === 'unlinked' && codeOf(item) === 'create_confirmed')
    plan = { kind: 'create', seqs: plan.seqs };
  switch (plan.kind) {
    case 'nothing':
      if (plan.why !== 'already_at_hq' && item.firstAttemptAt !== null) {
        // Deleted here after a create of it went out and was not linked: that create may still
        // land, late. A GiftDesk remote is asked to retire its reference (and delete the contact
        // if it has landed); an HQ of the donor API alone has no such thing, and nothing is sent.
        if (x.extensions === null) return { kind: 'askExtensions' };
        if (x.extensions.has(RETIRE_EXTENSION)) {
          const reference = referenceFor(await identityOf(trx, 'contact', e.entityId));
          return x.send(
            plan,
            'delete',
            'DELETE',
            retirementPath(reference),
            undefined,
            { reference },
            { accountId: cfg.remoteAccountId },
          );
        }
      }
      return x.nothing(plan.seqs);
    case 'unlinked':
      return x.park(
        'not_linked',
        `Contact ${e.entityId} changed here but is not linked to a contact at HQ (it came in as history HQ already has, without its HQ id). Pull from HQ to link it, or retry to create it at HQ.`,
      );
    case 'create': {
      const email = contact!.primaryEmail ?? contact!.email;
      if (emailMatch && cfg.emailMatch && email) {
        // HQ's contact with this email may be one GiftDesk created for ANOTHER local contact
        // whose create is still unconfirmed (same email, another name): it is that record's,
        // never this one's. Wait until that create is settled, then match.
        const racing = await unconfirmedCreateWithEmail(trx, cfg.accountId, e.entityId, email);
        if (racing)
          return {
            kind: 'blocked',
            reason: `waiting for contact ${racing} (same email) to be confirmed at HQ`,
          };
        return { kind: 'emailCheck', email };
      }
      // Tagged with the reference it came with, if it came from another GiftDesk (sync-identity.ts).
      const identity = await identityOf(trx, 'contact', e.entityId);
      const body = withResentSince(contactCreateBody(contact!, identity, cfg.remoteAccountId), x);
      return x.send(plan, 'create', 'POST', '/contacts', body, body);
    }
    case 'update': {
      const identity = await identityOf(trx, 'contact', e.entityId);
      const body = contactUpdateBody(contact!, identity, plan.fields);
      if (Object.keys(body).length === 0) return x.nothing(plan.seqs);
      return x.send(
        plan,
        'update',
        'PUT',
        `/contacts/${encodeURIComponent(remoteId!)}`,
        { ...body },
        { fields: plan.fields },
      );
    }
    case 'delete': {
      if (codeOf(item) !== 'delete_confirmed') {
        const gifts = await pushedGiftsOf(trx, e.entityId);
        if (gifts > 0) {
          return x.park(
            'confirm_delete',
            `Contact ${e.entityId} was deleted here. Deleting it at HQ also deletes the ${gifts} gift${gifts === 1 ? '' : 's'} of it already at HQ. Retry to confirm the delete at HQ, or discard to keep the contact and its gifts there.`,
          );
        }
      }
      return x.send(
        plan,
        'delete',
        'DELETE',
        `/contacts/${encodeURIComponent(remoteId!)}`,
        undefined,
        { remoteId },
        { accountId: cfg.remoteAccountId },
      );
    }
  }
}

/**
 * Another local contact whose create at HQ is in flight or of unknown outcome and sent this
 * email, if any (deleted here since or not: what HQ may hold is what the attempt sent).
 */
async function unconfirmedCreateWithEmail(
  trx: Db,
  accountId: string,
  contactId: string,
  email: string,
): Promise<string | null> {
  const key = email.trim().toLowerCase();
  const hit = (await unconfirmedContactCreates(trx, accountId)).find(
    (c) => c.id !== contactId && c.email?.trim().toLowerCase() === key,
  );
  return hit?.id ?? null;
}

/** Gifts of a (deleted) contact that HQ has. */
async function pushedGiftsOf(trx: Db, contactId: string): Promise<number> {
  const r = await trx
    .selectFrom('syncItems as i')
    .innerJoin('syncLinks as l', (j) =>
      j.onRef('l.localId', '=', 'i.entityId').on('l.entityType', '=', 'donation'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('i.entityType', '=', 'donation')
    .where('i.laneId', '=', contactId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
