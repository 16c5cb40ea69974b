/**
 * Everything this GiftDesk typed, sent again from the start: for a station whose event hub was
 * lost for good (a dead laptop) after it handed over gifts the hub never passed on, pointed at
 * a replacement hub or at HQ. It knows nothing of what the new upstream holds, so:
 *
 * - no contact or gift is linked to anything upstream any more (its links are dropped: the old
 *   upstream's ids mean nothing to the new one);
 * - every push item is dropped (no attempt in flight, nothing parked for the old upstream);
 * - every change this GiftDesk made itself (push = 1) is unsent again; what the old hub's feed
 *   brought (push = 0) stays here and is never sent;
 * - gifts the old hub's feed brought that waited for a record here (feed-gifts.ts) go: they name
 *   the old hub's ids; the new upstream's feed brings what it has.
 *
 * Then every record whose create goes again is marked "may be there" (`markResent`): the lost
 * hub may have taken it to HQ, and an HQ that implements only the donor API creates whatever
 * it is sent (no create-once by reference). So it is never posted blindly: its item is a
 * create of unknown outcome whose request can no longer land, and the reconcile sweep looks for
 * it upstream by its `gd:` reference before anything is sent for it (reconcile/) — found:
 * linked; absent: posted once. Its `resentSince` stays, so a station tells a replacement hub the
 * same when it posts it there, and that hub looks for it at HQ in turn (`markMayBeUpstream`).
 */
import { newId } from '#shared/ids.ts';
import type { Db } from '../../db/store.ts';
import { contactReferenceTag, withDonationReference } from '../push/identity.ts';
import { identityOf } from '../push/sync-identity.ts';
import type { PushEntity } from './items.ts';

/**
 * How far before a resent record's own creation it may have been created upstream: laptops at
 * an event disagree on the time by minutes, and a donor another station typed reached the lost
 * hub (and HQ) before its copy here was written. An hour more of HQ's newest contacts is a page
 * or two at event rates.
 */
export const RESENT_MARGIN_MS = 3_600_000;

/**
 * What reconcile reads of a resent gift's stored attempt (sweeps.ts): the gift as it would be
 * posted, but with its donor and campaign as LOCAL ids — their HQ ids are not known when it is
 * marked (the old upstream's links are gone). The sweep takes their links as they are then.
 */
export interface ResentDonationAttempt {
  localId: string;
  resent: { contactId: string; campaignId: string | null };
  body: { donationAmount: number; donationDate: string; paymentMethod: string; notes: string };
}

export async function markAllUnsent(trx: Db, accountId: string): Promise<number> {
  await trx
    .deleteFrom('syncLinks')
    .where('accountId', '=', accountId)
    .where('entityType', 'in', ['contact', 'donation'])
    .execute();
  await trx.deleteFrom('syncItems').where('accountId', '=', accountId).execute();
  await trx.deleteFrom('hubHeldGifts').where('accountId', '=', accountId).execute();
  await trx.deleteFrom('hubSentGifts').where('accountId', '=', accountId).execute();
  const r = await trx
    .updateTable('changeLog')
    .set({ syncedAt: null, attemptId: null })
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('entityType', 'in', ['contact', 'donation'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * After markAllUnsent (and the donors queued with it): every contact and gift of the account
 * whose create is to go again is marked "may be there" (markMayBeUpstream), upstream no earlier
 * than an hour before the earliest of them was written here, or before `knownSince` (when this
 * GiftDesk first joined the lost hub) when that is earlier. Returns how many records.
 */
export async function markResent(
  trx: Db,
  accountId: string,
  at: string,
  knownSince: string | null,
): Promise<number> {
  const creates = await trx
    .selectFrom('changeLog')
    .select(['entityType', 'entityId'])
    .distinct()
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('op', '=', 'create')
    .where('syncedAt', 'is', null)
    .where('entityType', 'in', ['contact', 'donation'])
    .execute();
  if (creates.length === 0) return 0;
  const ids = (type: PushEntity) => creates.filter((c) => c.entityType === type).map((c) => c.entityId);
  let earliest = knownSince === null ? Infinity : Date.parse(knownSince);
  for (const table of ['contacts', 'donations'] as const) {
    const list = ids(table === 'contacts' ? 'contact' : 'donation');
    for (let i = 0; i < list.length; i += 500) {
      const r = await trx
        .selectFrom(table)
        .select((eb) => eb.fn.min<string>('createdAt').as('first'))
        .where('id', 'in', list.slice(i, i + 500))
        .executeTakeFirst();
      if (r?.first) earliest = Math.min(earliest, Date.parse(r.first));
    }
  }
  const since = new Date(
    (Number.isFinite(earliest) ? earliest : Date.parse(at)) - RESENT_MARGIN_MS,
  ).toISOString();
  let marked = 0;
  for (const c of creates)
    if (
      await markMayBeUpstream(trx, {
        entityType: c.entityType as PushEntity,
        entityId: c.entityId,
        since,
        at,
      })
    )
      marked++;
  return marked;
}

/**
 * Marks one record "may be upstream already, created there no earlier than `since`": its push
 * item becomes a create of unknown outcome, long past its deadline, carrying what reconcile
 * looks for (its `gd:` reference — the one it goes under, sync-identity.ts — its names, or its
 * gift fields), and its unsent changes are in that attempt. The next pass's reconcile sweep
 * looks for it upstream before anything is posted for it: found, it is linked (edits made since
 * go as an update); absent, it is posted once. A gift is read-only from then (it may be at HQ).
 * In the caller's transaction; false (nothing marked) for a record no longer here.
 */
export async function markMayBeUpstream(
  trx: Db,
  p: { entityType: PushEntity; entityId: string; since: string; at: string },
): Promise<boolean> {
  const attempt = await attemptOf(trx, p.entityType, p.entityId);
  if (!attempt) return false;
  const attemptId = newId('request').replace(/^req_/, 'att_');
  const item = {
    state: 'unknown',
    op: 'create',
    attemptId,
    attemptAt: p.since,
    attemptBody: JSON.stringify(attempt.body),
    firstAttemptAt: p.at,
    nextTryAt: null,
    resentSince: p.since,
    updatedAt: p.at,
  };
  const found = await trx
    .selectFrom('syncItems')
    .select('entityId')
    .where('entityType', '=', p.entityType)
    .where('entityId', '=', p.entityId)
    .executeTakeFirst();
  if (found)
    await trx
      .updateTable('syncItems')
      .set(item)
      .where('entityType', '=', p.entityType)
      .where('entityId', '=', p.entityId)
      .execute();
  else
    await trx
      .insertInto('syncItems')
      .values({
        ...item,
        entityType: p.entityType,
        entityId: p.entityId,
        accountId: attempt.accountId,
        laneId: attempt.laneId,
        failures: 0,
        lastError: null,
        attentionCode: null,
        attentionReason: null,
        attentionStatus: null,
        attentionAt: null,
        pushedState: null,
      })
      .execute();
  await trx
    .updateTable('changeLog')
    .set({ attemptId })
    .where('entityType', '=', p.entityType)
    .where('entityId', '=', p.entityId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .execute();
  return true;
}

/** The attempt body reconcile reads for a record (sweeps.ts), its account and lane. */
async function attemptOf(
  trx: Db,
  entityType: PushEntity,
  id: string,
): Promise<{ accountId: string; laneId: string; body: unknown } | null> {
  const identity = await identityOf(trx, entityType, id);
  if (entityType === 'contact') {
    const c = await trx
      .selectFrom('contacts')
      .select(['accountId', 'firstName', 'lastName', 'primaryEmail'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!c) return null;
    const body = {
      firstName: c.firstName,
      lastName: c.lastName,
      ...(c.primaryEmail ? { primaryEmail: c.primaryEmail } : {}),
      tags: [contactReferenceTag(identity)],
    };
    return { accountId: c.accountId, laneId: id, body };
  }
  const g = await trx
    .selectFrom('donations')
    .select(['accountId', 'contactId', 'campaignId', 'amountCents', 'donationDate', 'paymentMethod', 'notes'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!g) return null;
  const body: ResentDonationAttempt = {
    localId: id,
    resent: { contactId: g.contactId, campaignId: g.campaignId },
    body: {
      donationAmount: g.amountCents / 100,
      donationDate: g.donationDate,
      paymentMethod: g.paymentMethod,
      notes: withDonationReference(g.notes, identity),
    },
  };
  return { accountId: g.accountId, laneId: g.contactId, body };
}
