/**
 * The event's gifts at a station, as its hub holds them. The hub's feed carries every value of a
 * gift a read could differ on (shared/schemas/hub.ts HubDonation); a station holds each gift
 * with those values: another station's or the hub's is written under the hub's id, this
 * station's own keeps its id and batch. Every write here keeps what reads are built on right:
 * the donors' totals (old and new donor when the gift moved), the account's count of gifts
 * (a voided gift is not counted), the gift's sync reference, its limit flags and history
 * replaced by the hub's (under the hub's ids, so the flags read alike at both ends), whether the
 * hub sent it to HQ (`hub_sent_gifts`), and the change logged with push = 0 (the hub has it).
 * The caller (electron/sync/station/) resolves the hub's ids to local ones first and runs this
 * in the page's transaction; a gift whose records are not here is not written (the caller holds
 * it) — never half of one.
 */
import type { ElectionType, PaymentMethod, DonationStatus } from '#shared/enums.ts';
import type { HubDonationFlag, HubDonationHistory } from '#shared/schemas/hub.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { addToDonorTotals } from '../donations/rules.ts';
import { type Election, resolveElection } from '../limits/elections.ts';
import { recomputeContactTotals } from '../limits/history.ts';

/** A gift of the hub, its ids already local. */
export interface EventGift {
  accountId: string;
  contactId: string;
  campaignId: string | null;
  committeeId: string | null;
  donationAccountId: string | null;
  onBehalfOfContactId: string | null;
  facilitatedByContactId: string | null;
  amountCents: number;
  donationDate: string;
  paymentMethod: PaymentMethod;
  status: DonationStatus;
  electionType: ElectionType | null;
  electionYear: number | null;
  isAnonymous: boolean;
  isRecurring: boolean;
  thankYouSent: boolean;
  thankYouSentDate: string | null;
  notes: string | null;
  stationId: string | null;
  /** Who typed it at its station, as the hub recorded it; undefined from a hub that does not say. */
  enteredByName?: string | null | undefined;
  /** When it was entered where it was typed. */
  createdAt: string;
  updatedAt: string;
  sentToHq: boolean;
  flags: readonly HubDonationFlag[];
  history: readonly HubDonationHistory[];
}

async function exists(
  trx: Db,
  table: 'campaigns' | 'committees' | 'donationAccounts' | 'contacts',
  accountId: string,
  id: string,
) {
  const r = await trx
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return r !== undefined;
}

/** Why the gift cannot be written here, or null when it can. */
async function missingRecord(trx: Db, g: EventGift): Promise<string | null> {
  if (!(await exists(trx, 'contacts', g.accountId, g.contactId))) return 'its donor';
  if (g.campaignId && !(await exists(trx, 'campaigns', g.accountId, g.campaignId))) return 'its campaign';
  if (g.committeeId && !(await exists(trx, 'committees', g.accountId, g.committeeId))) return 'its committee';
  if (g.donationAccountId && !(await exists(trx, 'donationAccounts', g.accountId, g.donationAccountId)))
    return 'its donation account';
  if (g.onBehalfOfContactId && !(await exists(trx, 'contacts', g.accountId, g.onBehalfOfContactId)))
    return 'the contact it is credited to';
  if (g.facilitatedByContactId && !(await exists(trx, 'contacts', g.accountId, g.facilitatedByContactId)))
    return 'the host who raised it';
  if (!g.campaignId && !g.committeeId && !g.donationAccountId)
    return 'a campaign, committee or donation account';
  return null;
}

export type EventGiftResult = { written: string } | { missing: string };

/**
 * The gift's columns as the hub holds them (the election resolved here only if the hub sent none;
 * `byDate` keeps those resolved for a page).
 */
export async function mirroredColumns(trx: Db, g: EventGift, byDate?: Map<string, Election>) {
  let election: Election | undefined =
    g.electionType !== null && g.electionYear !== null
      ? { electionType: g.electionType, electionYear: g.electionYear }
      : byDate?.get(g.donationDate);
  if (election === undefined) {
    election = await resolveElection(trx, g.accountId, g.donationDate, {});
    byDate?.set(g.donationDate, election);
  }
  return {
    contactId: g.contactId,
    amountCents: g.amountCents,
    donationDate: g.donationDate,
    paymentMethod: g.paymentMethod,
    status: g.status,
    campaignId: g.campaignId,
    committeeId: g.committeeId,
    donationAccountId: g.donationAccountId,
    electionType: election.electionType,
    electionYear: election.electionYear,
    onBehalfOfContactId: g.onBehalfOfContactId,
    facilitatedByContactId: g.facilitatedByContactId,
    isAnonymous: g.isAnonymous ? 1 : 0,
    isRecurring: g.isRecurring ? 1 : 0,
    thankYouSent: g.thankYouSent ? 1 : 0,
    thankYouSentDate: g.thankYouSentDate,
    notes: g.notes,
    stationId: g.stationId,
    ...(g.enteredByName !== undefined ? { enteredByName: g.enteredByName } : {}),
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  } satisfies Partial<DonationRow>;
}

type Mirrored = Awaited<ReturnType<typeof mirroredColumns>>;

/** The gift's flags and history replaced by the hub's; whether the hub sent it to HQ. */
async function replaceAttached(trx: Db, id: string, g: EventGift): Promise<void> {
  await trx.deleteFrom('limitFlags').where('donationId', '=', id).execute();
  if (g.flags.length > 0)
    await trx
      .insertInto('limitFlags')
      .values(g.flags.map((f) => ({ ...f, accountId: g.accountId, donationId: id })))
      .execute();
  await trx.deleteFrom('donationHistory').where('donationId', '=', id).execute();
  if (g.history.length > 0)
    await trx
      .insertInto('donationHistory')
      .values(g.history.map((h) => ({ ...h, donationId: id })))
      .execute();
  if (g.sentToHq)
    await trx
      .insertInto('hubSentGifts')
      .values({ donationId: id, accountId: g.accountId })
      .onConflict((oc) => oc.column('donationId').doNothing())
      .execute();
  else await trx.deleteFrom('hubSentGifts').where('donationId', '=', id).execute();
}

/** What the flags, history and "sent to HQ" of a gift are now, to compare with the hub's. */
async function attachedNow(trx: Db, id: string): Promise<string> {
  const flags = await trx
    .selectFrom('limitFlags')
    .selectAll()
    .where('donationId', '=', id)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const history = await trx
    .selectFrom('donationHistory')
    .select('id')
    .where('donationId', '=', id)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const sent = await trx
    .selectFrom('hubSentGifts')
    .select('donationId')
    .where('donationId', '=', id)
    .execute();
  return attachedKey(
    flags.map((f) => ({
      ...f,
      limitCents: Number(f.limitCents),
      donorTotalCents: Number(f.donorTotalCents),
    })),
    history,
    sent.length > 0,
  );
}

function attachedKey(
  flags: ReadonlyArray<Omit<HubDonationFlag, never>>,
  history: ReadonlyArray<{ id: string }>,
  sent: boolean,
): string {
  const f = flags.map((x) => [
    x.id,
    x.limitKind,
    x.windowKey,
    x.limitCents,
    x.donorTotalCents,
    x.state,
    x.resolvedAt,
    x.resolutionNote,
  ]);
  return JSON.stringify([f, history.map((h) => h.id), sent]);
}

/**
 * Writes a gift of the hub that is not here, under `id` (the hub's): `written`, or `missing`
 * naming what is not here. A voided gift is written too (it is in the ledger), outside the
 * totals and the count.
 */
export async function insertEventGift(
  trx: Db,
  id: string,
  g: EventGift,
  at: string,
): Promise<EventGiftResult> {
  const missing = await missingRecord(trx, g);
  if (missing) return { missing };
  const cols = await mirroredColumns(trx, g);
  await trx
    .insertInto('donations')
    .values({ ...cols, id, accountId: g.accountId, externalId: null, batchId: null })
    .execute();
  const reference = donationReferenceOf(g.notes);
  if (reference !== null)
    await trx
      .insertInto('donationSyncReferences')
      .values({ accountId: g.accountId, reference, donationId: id })
      .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing())
      .execute();
  if (g.status !== 'voided') await bumpCounters(trx, g.accountId, { donations: 1 });
  if (g.status === 'completed')
    await addToDonorTotals(trx, {
      accountId: g.accountId,
      contactId: g.contactId,
      cents: g.amountCents,
      latestDate: g.donationDate,
    }).execute();
  await replaceAttached(trx, id, g);
  await logChange(trx, {
    accountId: g.accountId,
    entityType: 'donation',
    entityId: id,
    op: 'create',
    push: false,
    at,
  });
  return { written: id };
}

const MONEY_FIELDS = ['contactId', 'amountCents', 'donationDate', 'status'] as const;

/**
 * Gives the gift held here as `id` the hub's values (its id and batch stay): `written` when
 * anything changed, `known` when it was as the hub holds it already, `missing` naming what
 * is not here. The totals of its donor (and of its old donor, when it moved) are recomputed
 * when its money moved; the account's count follows a void or an unvoid.
 */
export async function updateEventGift(
  trx: Db,
  id: string,
  g: EventGift,
  at: string,
): Promise<EventGiftResult | { known: true }> {
  const row = await trx.selectFrom('donations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return { missing: 'the gift itself' };
  const cols = await mirroredColumns(trx, g);
  const fields = (Object.keys(cols) as Array<keyof Mirrored>).filter(
    (k) => String(cols[k] ?? '') !== String(row[k] ?? ''),
  );
  const attachedSame = (await attachedNow(trx, id)) === attachedKey(g.flags, g.history, g.sentToHq);
  if (fields.length === 0 && attachedSame) return { known: true };
  if (fields.length > 0) {
    const missing = await missingRecord(trx, g);
    if (missing) return { missing };
    await trx.updateTable('donations').set(cols).where('id', '=', id).execute();
    if (MONEY_FIELDS.some((f) => fields.includes(f)))
      for (const c of new Set([row.contactId, g.contactId])) await recomputeContactTotals(trx, c);
    const counted = (s: DonationStatus) => (s === 'voided' ? 0 : 1);
    const delta = counted(g.status) - counted(row.status);
    if (delta !== 0) await bumpCounters(trx, g.accountId, { donations: delta });
  }
  if (!attachedSame) await replaceAttached(trx, id, g);
  await logChange(trx, {
    accountId: g.accountId,
    entityType: 'donation',
    entityId: id,
    op: 'update',
    fields: attachedSame ? fields : [...fields, 'flags'],
    push: false,
    at,
  });
  return { written: id };
}

/** The local id of the account's gift created with this sync reference, or null. */
export async function giftByReference(trx: Db, accountId: string, reference: string): Promise<string | null> {
  const r = await trx
    .selectFrom('donationSyncReferences')
    .select('donationId')
    .where('accountId', '=', accountId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return r?.donationId ?? null;
}

/** Whether the account holds a gift with this local id (a station's own gift coming back). */
export async function hasGift(trx: Db, accountId: string, id: string): Promise<boolean> {
  const r = await trx
    .selectFrom('donations')
    .select('id')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return r !== undefined;
}

/** Whether a gift has changes here the hub has not confirmed yet (its own create included). */
export async function giftHasPendingChanges(trx: Db, accountId: string, id: string): Promise<boolean> {
  const r = await trx
    .selectFrom('changeLog')
    .select('seq')
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'donation')
    .where('entityId', '=', id)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** At a station: whether the hub says it has sent this gift to HQ (then it is changed only there). */
export async function sentToHqByHub(db: Db, donationId: string): Promise<boolean> {
  const r = await db
    .selectFrom('hubSentGifts')
    .select('donationId')
    .where('donationId', '=', donationId)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * Deletes a contact the hub deleted, with its gifts (push = 0: the hub did it). The caller
 * checks first that nothing of it waits to be pushed from here.
 */
export async function deleteEventContact(
  trx: Db,
  accountId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const gifts = await trx
    .selectFrom('donations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contactId', '=', id)
    .where('status', '!=', 'voided')
    .executeTakeFirstOrThrow();
  const r = await trx
    .deleteFrom('contacts')
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await bumpCounters(trx, accountId, { contacts: -1, donations: -Number(gifts.n) });
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: id,
    op: 'delete',
    fields: null,
    push: false,
    at,
  });
  return true;
}
