/**
 * Creating a donation (D1–D7), once per sync reference: the row, the donor's totals, the
 * account's count, the limit check and the outbox entry in one transaction; a create that
 * finds its reference held answers the gift created with it.
 */
import type { DonationCreateBody, DonationCreated } from '#shared/schemas/donations.ts';
import { reusable } from '../../db/bulk.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { requireOpenBatch } from './batches.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import type { DomainContext } from '../context.ts';
import {
  type DonationWriteOptions,
  addToDonorTotals,
  checkDonation,
  checkReferences,
  donationCreatedEntry,
  giftReference,
  newDonationRow,
  present,
  requireDesignation,
} from './rules.ts';
import { resolveElection } from '../limits/elections.ts';
import { DomainError, notFound, ReferenceHeld } from '../errors.ts';
import { checkLimits } from '../limits/checks.ts';
import { donationFromRow } from '../row-mappers.ts';
import { applyVoid, lockUnsentDonation } from './corrections.ts';
import { insertDonationInTwo } from './create-postgres.ts';

export function toCreated(row: DonationRow): DonationCreated {
  const d = donationFromRow(row);
  return {
    id: d.id,
    contactId: d.contactId,
    campaignId: d.campaignId,
    donationAmount: d.donationAmount,
    donationDate: d.donationDate,
    paymentMethod: d.paymentMethod,
    status: d.status,
    notes: d.notes,
    createdAt: d.createdAt,
  };
}

/** addToDonorTotals compiled once, for the request path: values accountId, contactId, cents, latestDate. */
const addToDonorTotalsOnce = reusable((db, p) =>
  addToDonorTotals(db, { accountId: p(0), contactId: p(1), cents: p(2), latestDate: p(3) }),
);

/** Every column of a stored donation, in the order insertDonationRow takes their values. */
const DONATION_COLUMNS = [
  'id',
  'accountId',
  'contactId',
  'amountCents',
  'donationDate',
  'paymentMethod',
  'status',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'electionType',
  'electionYear',
  'onBehalfOfContactId',
  'facilitatedByContactId',
  'isAnonymous',
  'isRecurring',
  'thankYouSent',
  'thankYouSentDate',
  'notes',
  'externalId',
  'batchId',
  'stationId',
  'enteredByUserId',
  'enteredByKeyId',
  'enteredByName',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof DonationRow>;
/** Fails to compile when a column of DonationRow is missing from DONATION_COLUMNS. */
const everyDonationColumn: Exclude<keyof DonationRow, (typeof DONATION_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everyDonationColumn;

const insertDonationRow = reusable((db, p) =>
  db
    .insertInto('donations')
    .values(Object.fromEntries(DONATION_COLUMNS.map((c, i) => [c, p(i)])) as unknown as DonationRow),
);

/**
 * A gift's sync reference (values accountId, reference, donationId). One per reference and
 * account: when another create with it has committed meanwhile (PostgreSQL: this one waited
 * for it on the key), nothing is inserted, and insertDonation says so.
 */
const insertDonationReference = reusable((db, p) =>
  db
    .insertInto('donationSyncReferences')
    .values({ accountId: p<string>(0), reference: p<string>(1), donationId: p<string>(2) })
    .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing()),
);

/** The account's gift created with this sync reference (values accountId, reference). */
const donationByReference = reusable((db, p) =>
  db
    .selectFrom('donationSyncReferences as r')
    .innerJoin('donations as d', 'd.id', 'r.donationId')
    .selectAll('d')
    .where('r.accountId', '=', p<string>(0))
    .where('r.reference', '=', p<string>(1)),
);

/**
 * Inserts one donation inside an open write transaction: the rules, the contact's totals,
 * the account's count, the limit check (D6) and the outbox entry, all or nothing.
 */
export async function insertDonation(
  trx: Db,
  input: DonationCreateBody,
  at: string,
  opts: DonationWriteOptions = {},
): Promise<DonationRow> {
  const checked = checkDonation(input);
  // A sync reference the account holds already: the record it names is the answer.
  const reference = giftReference(input, opts);
  if (reference !== null) {
    const held = await donationByReference(trx, [input.accountId, reference]);
    if (held.rows.length > 0) throw new ReferenceHeld(reference);
  }
  // The donor's totals move first: that UPDATE is also the row lock (on PostgreSQL) under
  // which this donor's limit checks run one at a time, and it tells us the donor exists (D3).
  // Anything refused after it is rolled back with the rest of the request.
  const donor = await addToDonorTotalsOnce(trx, [
    input.accountId,
    input.contactId,
    checked.cents,
    checked.donationDate,
  ]);
  if (Number(donor.numAffectedRows ?? 0) === 0)
    throw notFound('contact', 'contactId', input.contactId, 'contact_not_found');
  await checkReferences(trx, input);
  const election = await resolveElection(trx, input.accountId, checked.donationDate, input);
  if (present(opts.batchId)) await requireOpenBatch(trx, input.accountId, opts.batchId);
  const here = opts.stationId === undefined ? await ownStationId(trx, [input.accountId]) : null;
  const stationId =
    here === null
      ? (opts.stationId ?? null)
      : ((here.rows[0] as { stationId: string | null } | undefined)?.stationId ?? null);
  const row = newDonationRow(input, checked, election, at, { ...opts, stationId });
  const by = opts.enteredBy;
  await insertDonationRow(
    trx,
    DONATION_COLUMNS.map((c) => row[c]),
  );
  if (reference !== null) {
    const kept = await insertDonationReference(trx, [input.accountId, reference, row.id]);
    // Another create with this reference committed since the check above: roll this one back
    // (the gift, the totals, everything), answer that one.
    if (Number(kept.numAffectedRows ?? 0) === 0) throw new ReferenceHeld(reference);
  }
  await bumpCounters(trx, input.accountId, { donations: 1 });
  await checkLimits(trx, row, at);
  await logChange(trx, donationCreatedEntry(row, opts.push, at));
  if (opts.voided) {
    // Voided where it was typed before it was sent: recorded voided in the same step, so the
    // gift is never counted, flagged open or sent on as completed here in between.
    await applyVoid(trx, row, opts.voided.reason, {}, at, by);
    row.status = 'voided';
  }
  if (opts.onCreated) await opts.onCreated(trx, row.id);
  return row;
}

/** How a donation is written (rules.ts, where both ways of creating one take it). */
export type { DonationWriteOptions };

/** This GiftDesk's own station id in the account's event, when it is a station (its hub remote's). */
const ownStationId = reusable((db, p) =>
  db
    .selectFrom('syncRemotes')
    .select('stationId')
    .where('accountId', '=', p<string>(0))
    .where('kind', '=', 'hub'),
);

export async function createDonation(
  ctx: DomainContext,
  input: DonationCreateBody,
  opts: DonationWriteOptions = {},
): Promise<DonationCreated> {
  return (await createDonationOnce(ctx, input, opts)).donation;
}

/**
 * Creates a gift, once per sync reference: when the notes' last line is a GiftDesk reference
 * (`gd:<local id>`, #shared/sync-reference.ts) and the account already holds a gift created
 * with it, that gift is the answer (`created: false`) and nothing is written — no row, no
 * totals, no change-log entry. The database enforces it (a unique reference per account), so
 * two creates racing with one reference store one gift and both answer it.
 */
export async function createDonationOnce(
  ctx: DomainContext,
  input: DonationCreateBody,
  opts: DonationWriteOptions = {},
): Promise<{ donation: DonationCreated; created: boolean }> {
  requireDesignation(input); // fail fast before queueing a write
  for (;;) {
    const at = ctx.now();
    try {
      const writeOpts = { ...opts, enteredBy: opts.enteredBy ?? ctx.actor ?? null };
      // On PostgreSQL the common gift takes two statements instead of a transaction's ten
      // (create-postgres.ts); null: this one goes the ordinary way.
      const row =
        (ctx.store.engine === 'postgres'
          ? await insertDonationInTwo(ctx.store.db, input, at, writeOpts)
          : null) ?? (await ctx.store.write((trx) => insertDonation(trx, input, at, writeOpts)));
      return { donation: toCreated(row), created: true };
    } catch (err) {
      if (!(err instanceof ReferenceHeld)) throw err;
      const held = await donationByReference(ctx.store.db, [input.accountId, err.reference]);
      const row = held.rows[0] as DonationRow | undefined;
      if (row && opts.voided && row.status === 'completed') {
        // An earlier send of this gift, from before it was voided there, landed: void it now
        // (refused like any void when it has gone on to HQ).
        const voided = opts.voided;
        const done = await ctx.store
          .write(async (trx) => {
            const locked = await lockUnsentDonation(trx, input.accountId, row.id, 'void', {});
            await applyVoid(trx, locked, voided.reason, {}, ctx.now(), opts.enteredBy ?? ctx.actor ?? null);
            return true;
          })
          .catch((e: unknown) => {
            // Deleted with its donor since it was read: as below, try once more.
            if (e instanceof DomainError && e.code === 'donation_not_found') return false;
            throw e;
          });
        if (done) return { donation: { ...toCreated(row), status: 'voided' }, created: false };
        continue;
      }
      if (row) return { donation: toCreated(row), created: false };
      // Deleted (with its donor) since it was seen: the reference is free again, try once more.
    }
  }
}
