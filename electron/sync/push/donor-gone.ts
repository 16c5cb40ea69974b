/**
 * At a station, what the hub's answers say of a donor the hub deleted (station/donor-back.ts):
 * which donors a 404 names, and whether a gift's create landed under a donor id that is no
 * longer its donor's.
 */
import type { Db } from '../../db/store.ts';
import type { RemoteResult } from '../net/http-client.ts';
import type { PushEntity } from '../outbox/items.ts';
import { remoteIdFor } from '../outbox/links.ts';
import type { SendStep } from './prepare-step.ts';
/** The gift fields that name a contact, as the hub's 404 names the one it does not have. */
const GIFT_CONTACT_FIELDS = ['contactId', 'onBehalfOfContactId', 'facilitatedByContactId'] as const;

/**
 * The local donors a request refused with 404 names that the hub no longer has: the contact
 * itself for its update, or the contacts of a gift's create that the hub's answer names
 * (`contact_not_found` on `contactId`, `onBehalfOfContactId` or `facilitatedByContactId`).
 */
export async function deletedDonorsNamed(
  trx: Db,
  e: { entityType: PushEntity; entityId: string },
  step: SendStep,
  res: RemoteResult,
): Promise<string[]> {
  if (e.entityType === 'contact') return step.op === 'update' ? [e.entityId] : [];
  if (step.op !== 'create' || res.error?.code !== 'contact_not_found') return [];
  const gift = await trx.selectFrom('donations').selectAll().where('id', '=', e.entityId).executeTakeFirst();
  if (!gift) return [];
  const named = new Set((res.error.details ?? []).map((d) => d.field));
  const out: string[] = [];
  for (const f of GIFT_CONTACT_FIELDS) {
    const id = gift[f];
    if (id && (named.has(f) || named.size === 0)) out.push(id);
  }
  return out;
}

/**
 * At a station: whether a gift's create reached the hub under a donor id that is no longer the
 * donor's there (the donor was deleted at the hub and is being brought back, donor-back.ts).
 */
export async function landedUnderDeletedDonor(trx: Db, giftId: string, body: unknown): Promise<boolean> {
  const sent = (body as { contactId?: unknown } | null)?.contactId;
  if (typeof sent !== 'string') return false;
  const gift = await trx
    .selectFrom('donations')
    .select('contactId')
    .where('id', '=', giftId)
    .executeTakeFirst();
  if (!gift) return false;
  return (await remoteIdFor(trx, 'contact', gift.contactId)) !== sent;
}
