/**
 * The gifts of the hub's feed, at a station: every gift of the event held here with the hub's
 * values (domain/pulled/event-gifts.ts), whatever its status. Another station's gift, or the
 * hub's, is written under the hub's id (as donors are) and linked to it; this station's own
 * gift coming back (linked to the hub's id, or carrying its own `gd:` reference) keeps its id
 * and batch and takes the hub's values — a void or a correction made at the hub, the marks, the
 * flags and their reviews, whether the hub sent it to HQ. A gift with a change here the hub
 * has not confirmed yet (its own create included) keeps this station's values: the change is
 * on its way to the hub, and the feed brings the hub's word on it after.
 *
 * Nothing the feed brings is dropped: a gift naming a donor (or campaign, committee, donation
 * account, credited contact or host) that is not here or not linked yet — this station's own
 * new donor whose create's answer was lost, say — is held (`hub_held_gifts`) and written once
 * what it names is here: on every feed page (applyHeldGifts) and after a push answer links a
 * record. The feed's cursor moves on, so one such gift never stops the event's other changes
 * from coming.
 */
import type { z } from 'zod';
import { dollarsToCents } from '#shared/money.ts';
import { HubDonation } from '#shared/schemas/hub.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import {
  type EventGift,
  giftByReference,
  giftHasPendingChanges,
  hasGift,
  insertEventGift,
  updateEventGift,
} from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { linkRemote, localIdFor } from '../outbox/links.ts';

export type FeedGift = z.infer<typeof HubDonation>;
/**
 * `waiting`: this station's own gift whose create the hub has not confirmed here yet (its
 * answer is not written down): kept held and applied once the answer links it.
 */
export type GiftOutcome = 'written' | 'known' | 'waiting' | { missing: string };

/** Why a held gift waits when it is this station's own, its create not confirmed here yet. */
const OWN_CREATE_UNCONFIRMED = 'its create here to be confirmed by the hub';

/** The local id of a hub record this station holds under a link (or under the hub's id). */
async function localOf(
  trx: Db,
  accountId: string,
  kind: 'campaign' | 'committee' | 'donationAccount' | 'contact',
  hubId: string | null | undefined,
) {
  if (!hubId) return null;
  return (await localIdFor(trx, accountId, kind, hubId)) ?? hubId;
}

/**
 * The gift of the feed as held here, if it is: linked to the hub's id; this station's own by
 * its `gd:` reference; under the hub's id; or another's that came with its reference before
 * (from a hub this station left for a replacement).
 */
async function heldHere(
  trx: Db,
  accountId: string,
  g: FeedGift,
): Promise<{ id: string; how: 'linked' | 'own' | 'another' } | null> {
  const linked = await localIdFor(trx, accountId, 'donation', g.id);
  if (linked !== null) return { id: linked, how: 'linked' };
  const ref = g.reference ?? donationReferenceOf(g.notes);
  if (ref !== null && ref.startsWith('gd:') && (await hasGift(trx, accountId, ref.slice(3))))
    return { id: ref.slice(3), how: 'own' };
  if (await hasGift(trx, accountId, g.id)) return { id: g.id, how: 'another' };
  const byRef = ref === null ? null : await giftByReference(trx, accountId, ref);
  return byRef === null ? null : { id: byRef, how: 'another' };
}

type Kind = 'campaign' | 'committee' | 'donationAccount' | 'contact';

/** The feed's gift with the hub's ids made local by `local` (feed-new.ts resolves a page's at once). */
export function localizedWith(
  accountId: string,
  g: FeedGift,
  local: (kind: Kind, hubId: string | null | undefined) => string | null,
): EventGift {
  return {
    accountId,
    contactId: local('contact', g.contactId)!,
    campaignId: local('campaign', g.campaignId),
    committeeId: local('committee', g.committeeId),
    donationAccountId: local('donationAccount', g.donationAccountId),
    onBehalfOfContactId: local('contact', g.onBehalfOfContactId),
    facilitatedByContactId: local('contact', g.facilitatedByContactId),
    amountCents: dollarsToCents(g.donationAmount) ?? Math.round(g.donationAmount * 100),
    donationDate: g.donationDate,
    paymentMethod: g.paymentMethod,
    status: g.status,
    electionType: g.electionType,
    electionYear: g.electionYear,
    isAnonymous: g.isAnonymous,
    isRecurring: g.isRecurring,
    thankYouSent: g.thankYouSent,
    thankYouSentDate: g.thankYouSentDate,
    notes: g.notes,
    stationId: g.stationId,
    enteredByName: g.enteredByName,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
    sentToHq: g.sentToHq,
    flags: g.flags,
    history: g.history,
  };
}

/** The feed's gift with the hub's ids made local. */
async function localized(trx: Db, accountId: string, g: FeedGift): Promise<EventGift> {
  const ids = new Map<string, string | null>();
  for (const [kind, hubId] of [
    ['contact', g.contactId],
    ['campaign', g.campaignId],
    ['committee', g.committeeId],
    ['donationAccount', g.donationAccountId],
    ['contact', g.onBehalfOfContactId],
    ['contact', g.facilitatedByContactId],
  ] as const)
    if (hubId) ids.set(`${kind}:${hubId}`, await localOf(trx, accountId, kind, hubId));
  return localizedWith(accountId, g, (kind, hubId) => (hubId ? (ids.get(`${kind}:${hubId}`) ?? null) : null));
}

/**
 * Holds one gift of the feed here with the hub's values (see the top): `written` when it was
 * written or changed, `known` when it was here as the hub holds it (or keeps this station's
 * values), `missing` naming what is not here yet.
 */
export async function applyFeedGift(
  trx: Db,
  accountId: string,
  g: FeedGift,
  at: string,
): Promise<GiftOutcome> {
  const local = await heldHere(trx, accountId, g);
  if (local !== null && (await giftHasPendingChanges(trx, accountId, local.id))) {
    // Its create's answer is not written down here yet: the hub's values once it is.
    if (local.how === 'own') {
      await holdGift(trx, accountId, g, OWN_CREATE_UNCONFIRMED, at);
      return 'waiting';
    }
    return 'known'; // a change made here is on its way: the hub's word on it comes after
  }
  const gift = await localized(trx, accountId, g);
  if (local !== null) {
    const r = await updateEventGift(trx, local.id, gift, at);
    if (!('missing' in r) && local.how === 'another')
      await linkRemote(trx, {
        accountId,
        entityType: 'donation',
        localId: local.id,
        remoteId: g.id,
        source: 'pulled',
        at,
      });
    return 'known' in r ? 'known' : 'missing' in r ? { missing: r.missing } : 'written';
  }
  const r = await insertEventGift(trx, g.id, gift, at);
  if ('missing' in r) return { missing: r.missing };
  await linkRemote(trx, {
    accountId,
    entityType: 'donation',
    localId: g.id,
    remoteId: g.id,
    source: 'pulled',
    at,
  });
  return 'written';
}

/** Keeps a gift that could not be written yet (the newest word of the hub on it wins). */
export async function holdGift(trx: Db, accountId: string, g: FeedGift, missing: string, at: string) {
  await trx
    .insertInto('hubHeldGifts')
    .values({
      accountId,
      hubId: g.id,
      contactHubId: g.contactId,
      body: JSON.stringify(g),
      missing,
      heldAt: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['accountId', 'hubId'])
        .doUpdateSet({ body: JSON.stringify(g), contactHubId: g.contactId, missing }),
    )
    .execute();
}

/** Drops held gifts that the feed now brings again (the page's word replaces them). */
export async function releaseHeld(trx: Db, accountId: string, hubIds: readonly string[]) {
  if (hubIds.length === 0) return;
  await trx
    .deleteFrom('hubHeldGifts')
    .where('accountId', '=', accountId)
    .where('hubId', 'in', hubIds)
    .execute();
}

/** Drops the held gifts of donors the hub deleted (their gifts went with them there). */
export async function dropHeldOf(trx: Db, accountId: string, contactHubIds: readonly string[]) {
  if (contactHubIds.length === 0) return;
  await trx
    .deleteFrom('hubHeldGifts')
    .where('accountId', '=', accountId)
    .where('contactHubId', 'in', contactHubIds)
    .execute();
}

/** Writes every held gift whose records are here now; returns how many were written. */
export async function applyHeldGifts(trx: Db, accountId: string, at: string): Promise<number> {
  const held = await trx
    .selectFrom('hubHeldGifts')
    .select(['hubId', 'body'])
    .where('accountId', '=', accountId)
    .orderBy('heldAt')
    .orderBy('hubId')
    .execute();
  let written = 0;
  for (const h of held) {
    const parsed = HubDonation.safeParse(JSON.parse(h.body));
    if (!parsed.success) continue;
    const outcome = await applyFeedGift(trx, accountId, parsed.data, at);
    if (outcome === 'waiting') continue; // held again, as it was
    if (typeof outcome === 'object') {
      await trx
        .updateTable('hubHeldGifts')
        .set({ missing: outcome.missing })
        .where('accountId', '=', accountId)
        .where('hubId', '=', h.hubId)
        .execute();
      continue;
    }
    if (outcome === 'written') written++;
    await releaseHeld(trx, accountId, [h.hubId]);
  }
  return written;
}

/** How many gifts of the feed wait here for what they name (this station's own waiting for their answer aside). */
export async function countHeldGifts(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('hubHeldGifts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', accountId)
    .where('missing', '!=', OWN_CREATE_UNCONFIRMED)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
