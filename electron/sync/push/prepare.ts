/**
 * Prepare: what one record's next request is, decided from the record as it is now and its
 * pending changes (coalesce.ts), and — when there is one — the record marked in flight with
 * the request's attempt id and body, in the same transaction that renews the lease. Only
 * after that commit may the request leave (the engine sends it; answers.ts notes the answer).
 *
 * The other answers: `done` (nothing to send; changes with no effect at HQ are settled),
 * `blocked` (waiting for another record to reach HQ first: a donor, a namesake's create of
 * the same email), `parked` (needs a person: "needs attention" with the reason), and
 * `emailCheck` (before creating a contact, look for HQ's contact with its email first).
 */
import { newId } from '#shared/ids.ts';
import type { Contact } from '#shared/schemas/contacts.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db, Store } from '../../db/store.ts';
import { getContact } from '../../domain/contacts/index.ts';
import type { DomainContext } from '../../domain/context.ts';
import { isDomainError } from '../../domain/errors.ts';
import { coalesce, type Plan } from './coalesce.ts';
import { laneIdFor } from './lanes.ts';
import { renewLeaseIn } from '../outbox/lease.ts';
import { markAttempt, pendingChanges, type PendingEntity, settleSeqs } from '../outbox/outbox.ts';
import {
  contactCreateBody,
  contactUpdateBody,
  donationCreateBody,
  type DonationRemoteIds,
} from './payloads.ts';
import { LostLease } from './under-lease.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import { remoteIdFor } from '../outbox/links.ts';
import { ensureItem, type PushEntity, unconfirmedContactCreates, updateItem } from '../outbox/items.ts';

export type Query = Record<string, string | number>;

export type Step =
  | { kind: 'done' }
  | { kind: 'blocked'; reason: string }
  /** `again`: it was parked for the same reason already (a re-check that found nothing new). */
  | { kind: 'parked'; again: boolean }
  | { kind: 'emailCheck'; email: string }
  | {
      kind: 'send';
      attemptId: string;
      op: 'create' | 'update' | 'delete';
      method: 'POST' | 'PUT' | 'DELETE';
      path: string;
      query?: Query;
      body?: unknown;
    };

export type SendStep = Extract<Step, { kind: 'send' }>;

/** Attention codes the engine re-checks by itself on every pass (nothing at HQ to wait for). */
export const RECHECKED = new Set(['reference_not_linked']);

export interface PrepareInput {
  store: Store;
  /** The domain context reads go through (a contact as the API shows it). */
  ctx: DomainContext;
  /** This engine's lease holder id and lease length (the transaction renews it). */
  holder: string;
  leaseMs: number;
  clock: () => number;
  cfg: Pick<RemoteConfig, 'accountId' | 'remoteAccountId' | 'emailMatch'>;
  record: PendingEntity;
  /** True when a contact's create may first be matched by email (a matcher is there and has not looked for this record yet); the settings' `emailMatch` must allow it too. */
  emailMatch: boolean;
  /** Changes settled without a request (nothing to send for them). */
  progress: (n: number) => void;
}

/**
 * Plans the record's next request and, if there is one, marks it in flight — all in one
 * transaction that first renews the lease (LostLease when another process has it: nothing is
 * marked). Changes with nothing to send are settled at once and counted through `progress`.
 */
export async function prepare(p: PrepareInput): Promise<Step> {
  const { store, cfg, record: e } = p;
  const at = new Date(p.clock()).toISOString();
  let settled = 0;
  const step = await store.write(async (trx): Promise<Step> => {
    if (!(await renewLeaseIn(trx, p.holder, p.clock(), p.leaseMs))) throw new LostLease();
    const item = await ensureItem(trx, {
      entityType: e.entityType,
      entityId: e.entityId,
      accountId: cfg.accountId,
      laneId: await laneIdFor(trx, e),
      at,
    });
    const changes = await pendingChanges(trx, e.entityType, e.entityId);
    if (changes.length === 0) {
      if (item.state === 'attention' && item.attentionCode && RECHECKED.has(item.attentionCode))
        await clearAttention(trx, e, at);
      return { kind: 'done' };
    }
    const remoteId = await remoteIdFor(trx, e.entityType, e.entityId);
    const park = async (code: string, reason: string): Promise<Step> => {
      const again = item.state === 'attention' && item.attentionCode === code;
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'attention',
        attentionCode: code,
        attentionReason: reason,
        attentionStatus: null,
        attentionAt: again ? item.attentionAt : at,
        updatedAt: at,
      });
      return { kind: 'parked', again };
    };
    const nothing = async (seqs: number[]): Promise<Step> => {
      settled += await settleSeqs(trx, cfg.accountId, seqs, at);
      if (item.state === 'attention') await clearAttention(trx, e, at);
      return { kind: 'done' };
    };
    const send = async (
      plan: Plan,
      op: 'create' | 'update' | 'delete',
      method: 'POST' | 'PUT' | 'DELETE',
      path: string,
      body: unknown,
      attemptBody: unknown,
      query?: Query,
    ): Promise<Step> => {
      const attemptId = newId('request').replace(/^req_/, 'att_');
      await markAttempt(trx, plan.seqs, attemptId);
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'in_flight',
        op,
        attemptId,
        attemptAt: at,
        nextTryAt: null, // a backoff that led here is spent; a failure of this attempt sets a new one
        attemptBody: JSON.stringify(attemptBody),
        firstAttemptAt: item.firstAttemptAt ?? at,
        attentionCode: null,
        attentionReason: null,
        attentionStatus: null,
        attentionAt: null,
        updatedAt: at,
      });
      return {
        kind: 'send',
        attemptId,
        op,
        method,
        path,
        ...(query ? { query } : {}),
        ...(body !== undefined ? { body } : {}),
      };
    };
    const q = { accountId: cfg.remoteAccountId };

    if (e.entityType === 'contact') {
      let contact: Contact | null = null;
      try {
        contact = await getContact(p.ctx, cfg.accountId, e.entityId, trx);
      } catch (err) {
        if (!isDomainError(err)) throw err;
      }
      let plan = coalesce(changes, { exists: contact !== null, hasRemote: remoteId !== null });
      if (!plan) return { kind: 'done' };
      if (plan.kind === 'unlinked' && item.attentionCode === 'create_confirmed')
        plan = { kind: 'create', seqs: plan.seqs };
      switch (plan.kind) {
        case 'nothing':
          return nothing(plan.seqs);
        case 'unlinked':
          return park(
            'not_linked',
            `Contact ${e.entityId} changed here but is not linked to a contact at HQ (it came in as history HQ already has, without its HQ id). Pull from HQ to link it, or retry to create it at HQ.`,
          );
        case 'create': {
          const email = contact!.primaryEmail ?? contact!.email;
          if (p.emailMatch && cfg.emailMatch && email) {
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
          const body = contactCreateBody(contact!, e.entityId, cfg.remoteAccountId);
          return send(plan, 'create', 'POST', '/contacts', body, body);
        }
        case 'update': {
          const body = contactUpdateBody(contact!, e.entityId, plan.fields);
          if (Object.keys(body).length === 0) return nothing(plan.seqs);
          return send(
            plan,
            'update',
            'PUT',
            `/contacts/${encodeURIComponent(remoteId!)}`,
            { ...body },
            { fields: plan.fields },
          );
        }
        case 'delete': {
          if (item.attentionCode !== 'delete_confirmed') {
            const gifts = await pushedGiftsOf(trx, e.entityId);
            if (gifts > 0) {
              return park(
                'confirm_delete',
                `Contact ${e.entityId} was deleted here. Deleting it at HQ also deletes the ${gifts} gift${gifts === 1 ? '' : 's'} of it already at HQ. Retry to confirm the delete at HQ, or discard to keep the contact and its gifts there.`,
              );
            }
          }
          return send(
            plan,
            'delete',
            'DELETE',
            `/contacts/${encodeURIComponent(remoteId!)}`,
            undefined,
            { remoteId },
            q,
          );
        }
      }
    }

    // donations
    const d = await trx.selectFrom('donations').selectAll().where('id', '=', e.entityId).executeTakeFirst();
    const plan = coalesce(changes, {
      exists: d !== undefined && d.status !== 'voided',
      hasRemote: remoteId !== null,
    });
    if (!plan) return { kind: 'done' };
    switch (plan.kind) {
      case 'nothing':
      case 'delete': // a gift leaves HQ only with its donor (the contact's DELETE): nothing to send for it
        return nothing(plan.seqs);
      case 'unlinked':
      case 'update': {
        if (plan.kind === 'unlinked' && item.attentionCode === 'create_confirmed') break;
        if (plan.kind === 'unlinked')
          return park(
            'not_linked',
            `Gift ${e.entityId} changed here but is not linked to a gift at HQ (it came in as history HQ already has). HQ's API cannot change a gift: make the change at HQ, then discard this item.`,
          );
        const fields = plan.fields === null ? 'the whole gift' : plan.fields.join(', ');
        return park(
          'hq_has_no_donation_update',
          `Gift ${e.entityId} changed here (${fields}) after it reached HQ. HQ's API cannot change a gift: make the same change in HQ's web application, then discard this item.`,
        );
      }
      case 'create':
        break;
    }
    const gift = d as DonationRow;
    if (gift.status !== 'completed') {
      return park(
        'not_completed',
        `Gift ${gift.id} is ${gift.status} here. HQ's API records only completed gifts: record it at HQ by hand, or discard this item.`,
      );
    }
    const remote: DonationRemoteIds = {};
    const donorRemote = await remoteIdFor(trx, 'contact', gift.contactId);
    if (!donorRemote)
      return { kind: 'blocked', reason: `waiting for its donor ${gift.contactId} to reach HQ` };
    remote.contactId = donorRemote;
    for (const [field, type, local] of [
      ['onBehalfOfContactId', 'contact', gift.onBehalfOfContactId],
      ['facilitatedByContactId', 'contact', gift.facilitatedByContactId],
      ['campaignId', 'campaign', gift.campaignId],
      ['committeeId', 'committee', gift.committeeId],
      ['donationAccountId', 'donationAccount', gift.donationAccountId],
    ] as const) {
      if (!local) continue;
      const r = await remoteIdFor(trx, type, local);
      if (r) remote[field] = r;
    }
    const built = donationCreateBody(gift, remote, cfg.remoteAccountId);
    if (!built.ok) {
      const contacts = built.missing.filter(
        (m) => m.field === 'onBehalfOfContactId' || m.field === 'facilitatedByContactId',
      );
      if (contacts.length > 0)
        return {
          kind: 'blocked',
          reason: `waiting for contact ${contacts.map((m) => m.localId).join(', ')} to reach HQ`,
        };
      const names = await referenceNames(trx, built.missing);
      return park(
        'reference_not_linked',
        `Gift ${gift.id} is credited to ${names.join(', ')}, not linked to HQ yet. Link ${built.missing.length === 1 ? 'it' : 'them'} to HQ's (Sync settings → reference data); the gift goes by itself once linked.`,
      );
    }
    return send(plan, 'create', 'POST', '/donations', built.body, { localId: gift.id, body: built.body });
  });
  if (settled > 0) p.progress(settled);
  return step;
}

async function referenceNames(
  trx: Db,
  missing: Array<{ field: string; localId: string }>,
): Promise<string[]> {
  const out: string[] = [];
  for (const m of missing) {
    const table =
      m.field === 'campaignId' ? 'campaigns' : m.field === 'committeeId' ? 'committees' : 'donationAccounts';
    const noun =
      m.field === 'campaignId' ? 'campaign' : m.field === 'committeeId' ? 'committee' : 'donation account';
    const r = await trx.selectFrom(table).select('name').where('id', '=', m.localId).executeTakeFirst();
    out.push(`${noun} "${r?.name ?? m.localId}" (${m.localId})`);
  }
  return out;
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

async function clearAttention(
  trx: Db,
  e: { entityType: PushEntity; entityId: string },
  at: string,
): Promise<void> {
  await updateItem(trx, e.entityType, e.entityId, {
    state: 'idle',
    attentionCode: null,
    attentionReason: null,
    attentionStatus: null,
    attentionAt: null,
    updatedAt: at,
  });
}
