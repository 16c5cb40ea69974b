/**
 * The gifts of the hub's feed, at a station. This station's own coming back are skipped
 * (linked to the hub's id already, or carrying its own `gd:` reference); another station's,
 * or the hub's, are written as this station's pulled gifts (domain/pulled/event-gifts.ts) with
 * their station of origin, so the donor's totals and the limit checks here count the whole
 * event.
 *
 * Nothing the feed brings is dropped: a gift naming a donor (or campaign, committee, donation
 * account) that is not here or not linked yet — this station's own new donor whose create's
 * answer was lost, say — is held (`hub_held_gifts`) and written once what it names is here:
 * on every feed page (applyHeldGifts) and after a push answer links a record. The feed's
 * cursor moves on, so one such gift never stops the event's other changes from coming.
 */
import type { z } from 'zod';
import { HubDonation } from '#shared/schemas/hub.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import { hasGift, insertEventGift } from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { linkRemote, localIdFor } from '../outbox/links.ts';

export type FeedGift = z.infer<typeof HubDonation>;
export type GiftOutcome = 'written' | 'known' | { missing: string };

/** The local id of a hub record this station holds under a link (or under the hub's id). */
async function localOf(
  trx: Db,
  accountId: string,
  kind: 'campaign' | 'committee' | 'donationAccount',
  hubId: string | null | undefined,
) {
  if (!hubId) return null;
  return (await localIdFor(trx, accountId, kind, hubId)) ?? hubId;
}

/** Whether a gift of the feed is this station's own (or here already). */
async function knownGift(trx: Db, accountId: string, g: FeedGift): Promise<boolean> {
  if ((await localIdFor(trx, accountId, 'donation', g.id)) !== null) return true;
  const ref = g.reference ?? donationReferenceOf(g.notes);
  return ref !== null && ref.startsWith('gd:') && (await hasGift(trx, accountId, ref.slice(3)));
}

/** Writes one gift of the feed here, when it is another's and all it names is here. */
export async function applyFeedGift(
  trx: Db,
  accountId: string,
  g: FeedGift,
  at: string,
): Promise<GiftOutcome> {
  if (g.status !== 'completed') return 'known';
  if (await knownGift(trx, accountId, g)) return 'known';
  const contactId = (await localIdFor(trx, accountId, 'contact', g.contactId)) ?? g.contactId;
  const r = await insertEventGift(
    trx,
    {
      accountId,
      contactId,
      campaignId: await localOf(trx, accountId, 'campaign', g.campaignId),
      committeeId: await localOf(trx, accountId, 'committee', g.committeeId),
      donationAccountId: await localOf(trx, accountId, 'donationAccount', g.donationAccountId),
      donationAmount: g.donationAmount,
      donationDate: g.donationDate,
      paymentMethod: g.paymentMethod,
      electionType: g.electionType,
      electionYear: g.electionYear,
      notes: g.notes,
      stationId: g.stationId,
    },
    at,
  );
  if ('missing' in r) return { missing: r.missing };
  if ('written' in r) {
    await linkRemote(trx, {
      accountId,
      entityType: 'donation',
      localId: r.written,
      remoteId: g.id,
      source: 'pulled',
      at,
    });
    return 'written';
  }
  return 'known';
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

/** How many gifts of the feed wait here for what they name. */
export async function countHeldGifts(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('hubHeldGifts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
