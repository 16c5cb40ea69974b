/**
 * The event's gifts at a station written many at once (event-gifts.ts writes them one by one).
 */
import { donationReferenceOf } from '#shared/sync-reference.ts';
import { engineOf, insertMany, insertObjects } from '../../db/bulk.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { changeLogRow } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { addManyToDonorTotals } from '../donations/rules.ts';
import type { Election } from '../limits/elections.ts';
import { type EventGift, mirroredColumns } from './event-gifts.ts';

/**
 * insertEventGift for many gifts not here (a station catching up with its hub: a page of
 * them), each under its id (the hub's): the same rows — the gift, its sync reference, its flags,
 * history and "sent to HQ", the donors' totals, the account's count, a change-log line — with a
 * statement per table instead of a dozen per gift. The caller vouches for what insertEventGift
 * checks one by one: every record a gift names is here, it names a campaign, committee or
 * donation account, and no gift's sync reference is held here already or given twice.
 */
export async function insertEventGifts(
  trx: Db,
  accountId: string,
  gifts: ReadonlyArray<{ id: string; gift: EventGift }>,
  at: string,
  /**
   * `deferTotals` (SQLite): the donors' totals are left to donor_total_deltas, a row per donor,
   * as the CLI's import leaves them (db/donor-total-deltas.ts), for the caller to apply once,
   * sorted, at the end of its catch-up; a store opened after a kill applies what was left.
   */
  opts: { deferTotals?: boolean } = {},
): Promise<void> {
  if (gifts.length === 0) return;
  const byDate = new Map<string, Election>();
  const rows: DonationRow[] = [];
  const references: Array<{ accountId: string; reference: string; donationId: string }> = [];
  const donors = new Map<string, { cents: number; latest: string }>();
  let counted = 0;
  for (const { id, gift: g } of gifts) {
    rows.push({
      enteredByName: null,
      ...(await mirroredColumns(trx, g, byDate)),
      id,
      accountId,
      externalId: null,
      batchId: null,
      enteredByUserId: null,
      enteredByKeyId: null,
    });
    const reference = donationReferenceOf(g.notes);
    if (reference !== null) references.push({ accountId, reference, donationId: id });
    if (g.status !== 'voided') counted++;
    if (g.status !== 'completed') continue;
    const d = donors.get(g.contactId);
    if (!d) donors.set(g.contactId, { cents: g.amountCents, latest: g.donationDate });
    else {
      d.cents += g.amountCents;
      if (g.donationDate > d.latest) d.latest = g.donationDate;
    }
  }
  await insertObjects(trx, 'donations', rows);
  await insertObjects(trx, 'donationSyncReferences', references);
  await bumpCounters(trx, accountId, { donations: counted });
  if (opts.deferTotals === true && engineOf(trx) === 'sqlite')
    await insertMany(
      trx,
      'donorTotalDeltas',
      ['contactId', 'cents', 'latestDate'],
      [...donors].map(([contactId, d]) => [contactId, d.cents, d.latest]),
    );
  else await addManyToDonorTotals(trx, engineOf(trx), accountId, donors);
  await insertObjects(
    trx,
    'limitFlags',
    gifts.flatMap(({ id, gift }) => gift.flags.map((f) => ({ ...f, accountId, donationId: id }))),
  );
  await insertObjects(
    trx,
    'donationHistory',
    gifts.flatMap(({ id, gift }) => gift.history.map((h) => ({ ...h, donationId: id }))),
  );
  await insertObjects(
    trx,
    'hubSentGifts',
    gifts.flatMap(({ id, gift }) => (gift.sentToHq ? [{ donationId: id, accountId }] : [])),
  );
  await insertObjects(
    trx,
    'changeLog',
    gifts.map(({ id }) =>
      changeLogRow({ accountId, entityType: 'donation', entityId: id, op: 'create', push: false, at }),
    ),
  );
}
