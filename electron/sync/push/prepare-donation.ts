/**
 * Prepare for a gift (prepare.ts has the transaction, prepare-step.ts how a step is written):
 * its create, once its donor and the contacts it names are at HQ and the campaign, committee
 * and donation account it is credited to are linked to HQ's. HQ's API cannot change or delete
 * a gift: a change after it reached HQ is parked for a person, a delete goes with its donor's —
 * but thank-you marks alone go to GiftDesk's route for them, or stay here (marks.ts). A
 * station's event hub is GiftDesk: a void or correction there goes by the hub's routes for them.
 */
import { DonationPatchBody } from '#shared/schemas/donations.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { codeOf } from '../outbox/items.ts';
import { remoteIdFor } from '../outbox/links.ts';
import { coalesce, type Plan, unionFields } from './coalesce.ts';
import { keepMarksHere, onlyThankYouFields, prepareMarks } from './marks.ts';
import { donationCreateBody, type DonationRemoteIds } from './payloads.ts';
import { type Preparing, type Step, withResentSince } from './prepare-step.ts';
import { identityOf } from './sync-identity.ts';

/** The gift's next step. */
export async function prepareDonation(x: Preparing): Promise<Step> {
  const { trx, record: e, item } = x;
  const d = await trx.selectFrom('donations').selectAll().where('id', '=', e.entityId).executeTakeFirst();
  // A station's hub keeps the event's whole ledger: a gift voided here before it left goes to
  // the hub too, recorded voided there (never on to HQ). To HQ, a voided gift never goes.
  const toHub = x.cfg.kind === 'hub';
  const plan = coalesce(x.changes, {
    exists: d !== undefined && (toHub || d.status !== 'voided'),
    hasRemote: x.remoteId !== null,
  });
  if (!plan) return { kind: 'done' };
  switch (plan.kind) {
    case 'nothing':
    case 'delete': // a gift leaves HQ only with its donor (the contact's DELETE): nothing to send for it
      return x.nothing(plan.seqs);
    case 'unlinked':
    case 'update': {
      if (plan.kind === 'unlinked' && codeOf(item) === 'create_confirmed') break;
      // Thank-you marks alone: GiftDesk's route for them, or kept here only (marks.ts).
      if (plan.kind === 'update' && onlyThankYouFields(plan.fields)) return prepareMarks(x, plan, d!);
      if (plan.kind === 'unlinked' && onlyThankYouFields(unionFields(x.changes)))
        return keepMarksHere(x, plan.seqs);
      if (plan.kind === 'unlinked')
        return x.park(
          'not_linked',
          `Gift ${e.entityId} changed here but is not linked to a gift at HQ (it came in as history HQ already has). HQ's API cannot change a gift: make the change at HQ, then discard this item.`,
        );
      // An event hub is GiftDesk: it takes a station's void or correction of its own gift.
      if (toHub && d !== undefined) return prepareHubChange(x, plan, d);
      const fields = plan.fields === null ? 'the whole gift' : plan.fields.join(', ');
      return x.park(
        'hq_has_no_donation_update',
        `Gift ${e.entityId} changed here (${fields}) after it reached HQ. HQ's API cannot change a gift: make the same change in HQ's web application, then discard this item.`,
      );
    }
    case 'create':
      break;
  }
  const gift = d as DonationRow;
  if (gift.status !== 'completed' && !(toHub && gift.status === 'voided')) {
    return x.park(
      'not_completed',
      `Gift ${gift.id} is ${gift.status} here. HQ's API records only completed gifts: record it at HQ by hand, or discard this item.`,
    );
  }
  const remote = await giftRemoteIds(trx, gift);
  if (!remote) return { kind: 'blocked', reason: `waiting for its donor ${gift.contactId} to reach HQ` };
  // Under the reference it came with, if it came from another GiftDesk (sync-identity.ts).
  const identity = await identityOf(trx, 'donation', gift.id);
  const built = donationCreateBody(gift, remote, x.cfg.remoteAccountId, identity, x.cfg.kind ?? 'hq');
  if (!built.ok) return waitForReferences(x, gift.id, built.missing);
  const body = withResentSince(
    gift.status === 'voided'
      ? { ...built.body, voided: { reason: await voidReason(trx, gift.id) } }
      : built.body,
    x,
  );
  return x.send(plan, 'create', 'POST', '/donations', body, { localId: gift.id, body });
}

/** The fields a correction at the hub carries: its `PATCH /donations/{id}` body's, from the schema (marks among them). */
const CORRECTABLE = Object.keys(DonationPatchBody.shape).filter(
  (f): f is Exclude<keyof DonationPatchBody, 'accountId'> => f !== 'accountId',
);

/**
 * A station's change of its own gift that reached the hub while the change waited here: made
 * before the gift was linked (typed, then voided or corrected at once, and the create's answer
 * lost, so the gift was found at the hub afterwards), or let go again after a create answered
 * with a copy an earlier attempt made. The station's routes ask the hub for a change of a gift
 * it holds (station/ask-hub.ts); this is the same request from the outbox: a void goes as
 * `POST /donations/{hub id}/void` (the hub answering "voided already" is done, answers.ts), a
 * correction as `PATCH /donations/{hub id}` with the changed fields' values here, every id the
 * hub's. The hub's refusal (the gift went on to HQ meanwhile) is parked with its words. Any
 * other change of status (a refund from a flag's review here) has no route at the hub: parked
 * for a person, never dropped.
 */
async function prepareHubChange(
  x: Preparing,
  plan: Extract<Plan, { kind: 'update' }>,
  gift: DonationRow,
): Promise<Step> {
  const path = `/donations/${encodeURIComponent(x.remoteId!)}`;
  const statusChanged = plan.fields === null || plan.fields.includes('status');
  if (statusChanged && gift.status === 'voided') {
    const body = { accountId: x.cfg.remoteAccountId, reason: await voidReason(x.trx, gift.id) };
    return x.send(plan, 'update', 'POST', `${path}/void`, body, body);
  }
  if (statusChanged && gift.status !== 'completed')
    return x.park(
      'hq_has_no_donation_update',
      `Gift ${gift.id} is ${gift.status} here since it reached the event hub. The hub takes a station's void or correction of its gift, not this: make the same change at the hub, then discard this item.`,
    );
  const fields = CORRECTABLE.filter((f) => plan.fields === null || plan.fields.includes(f));
  if (fields.length === 0) return x.nothing(plan.seqs);
  const remote = await giftRemoteIds(x.trx, gift);
  if (!remote) return { kind: 'blocked', reason: `waiting for its donor ${gift.contactId} to reach the hub` };
  const identity = await identityOf(x.trx, 'donation', gift.id);
  const built = donationCreateBody(gift, remote, x.cfg.remoteAccountId, identity, 'hub');
  if (!built.ok) return waitForReferences(x, gift.id, built.missing);
  const values: DonationPatchBody = built.body;
  const body: Record<string, unknown> = { accountId: x.cfg.remoteAccountId };
  for (const f of fields) body[f] = values[f] ?? null;
  return x.send(plan, 'update', 'PATCH', path, body, body);
}

/** The reason typed when the gift was voided here (its newest void in the history). */
async function voidReason(trx: Db, giftId: string): Promise<string | null> {
  const h = await trx
    .selectFrom('donationHistory')
    .select('note')
    .where('donationId', '=', giftId)
    .where('action', '=', 'voided')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return h?.note ?? null;
}

/**
 * The HQ ids of the records the gift names — its donor, the contacts it is on behalf of or
 * facilitated by, its campaign, committee and donation account — as far as the id map has them;
 * null when its donor has none yet.
 */
async function giftRemoteIds(trx: Db, gift: DonationRow): Promise<DonationRemoteIds | null> {
  const remote: DonationRemoteIds = {};
  const donorRemote = await remoteIdFor(trx, 'contact', gift.contactId);
  if (!donorRemote) return null;
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
  return remote;
}

/**
 * A gift naming records HQ does not know yet: blocked while a contact it names is still to
 * reach HQ (the push brings it); parked for a person when a reference record is not linked to
 * HQ's (the engine re-checks it on every pass, prepare.ts RECHECKED).
 */
async function waitForReferences(
  x: Preparing,
  giftId: string,
  missing: Array<{ field: keyof DonationRemoteIds; localId: string }>,
): Promise<Step> {
  const contacts = missing.filter(
    (m) => m.field === 'onBehalfOfContactId' || m.field === 'facilitatedByContactId',
  );
  if (contacts.length > 0)
    return {
      kind: 'blocked',
      reason: `waiting for contact ${contacts.map((m) => m.localId).join(', ')} to reach HQ`,
    };
  const names = await referenceNames(x.trx, missing);
  return x.park(
    'reference_not_linked',
    `Gift ${giftId} is credited to ${names.join(', ')}, not linked to HQ yet. Link ${missing.length === 1 ? 'it' : 'them'} to HQ's (Sync settings → reference data); the gift goes by itself once linked.`,
  );
}

/** How the unlinked reference records are named to a person: kind, name and id. */
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
