/**
 * The rules every donation passes, whichever way it comes in (the API's create, a correction,
 * the bulk import): a designation (D2), an amount above zero and dates that parse (D1, D4),
 * every referenced record in the account (D3), the stored row they make, and the donor totals
 * a gift adds to.
 */
import { toIsoInstant } from '#shared/dates.ts';
import { newId } from '#shared/ids.ts';
import { donationReferenceOf } from '#shared/sync-reference.ts';
import { dollarsToCents } from '#shared/money.ts';
import { DESIGNATION_ISSUE, SELF_CREDIT_ISSUE, type DonationCreateBody } from '#shared/schemas/donations.ts';
import { CompiledQuery } from 'kysely';
import { prepare, reusable } from '../../db/bulk.ts';
import type { Engine } from '../../db/migration-types.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import type { ChangeEntry } from '../change-log.ts';
import { type Actor, type WriteOptions, entryReference } from '../context.ts';
import type { Election } from '../limits/elections.ts';
import { DomainError, invalidField, notFound } from '../errors.ts';

const flag = (v: boolean | undefined): 0 | 1 => (v ? 1 : 0);

/**
 * What a create is made once by: the sync reference on the notes' last line (unless the write
 * says the notes are only text someone typed: syncReference false), else the key the window
 * minted for it (entryReference: `entry:` then the key, a prefix no sync reference has). Null: none.
 */
export function giftReference(input: DonationCreateBody, opts: DonationWriteOptions): string | null {
  const synced = opts.syncReference === false ? null : donationReferenceOf(input.notes);
  return synced ?? entryReference(opts);
}

export const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.length > 0;

/** D2: at least one of campaignId, committeeId, donationAccountId. */
export function requireDesignation(
  input: Pick<DonationCreateBody, 'campaignId' | 'committeeId' | 'donationAccountId'>,
): void {
  if (present(input.campaignId) || present(input.committeeId) || present(input.donationAccountId)) return;
  const issue = DESIGNATION_ISSUE;
  throw new DomainError(
    'bad_request',
    'designation_required',
    `A donation must be credited to a campaign, committee or donation account: ${issue}`,
    [
      { field: 'campaignId', issue },
      { field: 'committeeId', issue },
      { field: 'donationAccountId', issue },
    ],
  );
}

/** The records a donation may reference besides its donor, each of which must exist in the account. */
export const DONATION_REFERENCES = [
  ['campaignId', 'campaigns', 'campaign'],
  ['committeeId', 'committees', 'committee'],
  ['donationAccountId', 'donationAccounts', 'donation account'],
  ['onBehalfOfContactId', 'contacts', 'contact'],
  ['facilitatedByContactId', 'contacts', 'contact'],
] as const;

/** The 404 for a referenced record missing from the account (D3 and the rest). */
export function referenceNotFound(noun: string, field: string, id: string) {
  return notFound(noun, field, id, `${noun.replace(/ /g, '_')}_not_found`);
}

/** 404 naming the field, for any referenced record missing from the account (D3 and the rest). */
export async function checkReferences(trx: Db, input: DonationCreateBody): Promise<void> {
  for (const [field, table, noun] of DONATION_REFERENCES) {
    const id = input[field];
    if (!present(id)) continue;
    const found = await referenceInAccount[table](trx, [id, input.accountId]);
    if (found.rows.length === 0) throw referenceNotFound(noun, field, id);
  }
}

/** Whether a referenced record is in the account, per table (compiled once: the request path). */
const referenceInAccount = Object.fromEntries(
  (['campaigns', 'committees', 'donationAccounts', 'contacts'] as const).map((table) => [
    table,
    reusable((db, p) =>
      db.selectFrom(table).select('id').where('id', '=', p<string>(0)).where('accountId', '=', p<string>(1)),
    ),
  ]),
) as Record<(typeof DONATION_REFERENCES)[number][1], ReturnType<typeof reusable>>;

/** A donation's own values, checked (D1, D2, D4) and converted: cents, canonical instants. */
export interface CheckedDonation {
  cents: number;
  donationDate: string;
  thankYouSentDate: string | null;
}

/**
 * The rules a donation must pass before any record is looked up. Pure: the API's create and
 * the bulk import share it, so they accept exactly the same gifts.
 */
export function checkDonation(input: DonationCreateBody): CheckedDonation {
  requireDesignation(input);
  const cents = dollarsToCents(input.donationAmount);
  if (cents === null || cents <= 0) throw invalidField('donationAmount', 'must be greater than zero');
  const donationDate = toIsoInstant(input.donationDate);
  if (donationDate === null) throw invalidField('donationDate', 'must be an ISO 8601 date');
  const thankYouSentDate = present(input.thankYouSentDate) ? toIsoInstant(input.thankYouSentDate) : null;
  // A soft credit names someone other than the legal donor; a host may raise their own gift.
  if (present(input.onBehalfOfContactId) && input.onBehalfOfContactId === input.contactId)
    throw invalidField('onBehalfOfContactId', SELF_CREDIT_ISSUE);
  return { cents, donationDate, thankYouSentDate };
}

/**
 * A new gift's stored row: donationRow with a new id, and where and by whom it was entered
 * (the same for the transaction's way and PostgreSQL's two statements: create.ts,
 * create-postgres.ts).
 */
export function newDonationRow(
  input: DonationCreateBody,
  checked: CheckedDonation,
  election: Election,
  at: string,
  entry: {
    externalId?: string | null;
    batchId?: string | null;
    stationId: string | null;
    enteredBy?: Actor | null;
    enteredAt?: string;
  },
): DonationRow {
  const by = entry.enteredBy;
  return {
    ...donationRow(input, checked, election, newId('donation'), at, entry.externalId ?? null),
    batchId: present(entry.batchId) ? entry.batchId : null,
    stationId: entry.stationId,
    enteredByUserId: by?.userId ?? null,
    enteredByKeyId: by?.keyId ?? null,
    enteredByName: by?.name ?? null,
    ...(entry.enteredAt !== undefined ? { createdAt: entry.enteredAt } : {}),
  };
}

/** A new gift's change-log entry (the same for both ways of creating one). */
export function donationCreatedEntry(row: DonationRow, push: boolean | undefined, at: string): ChangeEntry {
  return { accountId: row.accountId, entityType: 'donation', entityId: row.id, op: 'create', push, at };
}

export function donationRow(
  input: DonationCreateBody,
  checked: CheckedDonation,
  election: Election,
  id: string,
  at: string,
  externalId: string | null,
): DonationRow {
  return {
    id,
    accountId: input.accountId,
    contactId: input.contactId,
    amountCents: checked.cents,
    donationDate: checked.donationDate,
    paymentMethod: input.paymentMethod,
    status: 'completed',
    campaignId: present(input.campaignId) ? input.campaignId : null,
    committeeId: present(input.committeeId) ? input.committeeId : null,
    donationAccountId: present(input.donationAccountId) ? input.donationAccountId : null,
    electionType: election.electionType,
    electionYear: election.electionYear,
    onBehalfOfContactId: present(input.onBehalfOfContactId) ? input.onBehalfOfContactId : null,
    facilitatedByContactId: present(input.facilitatedByContactId) ? input.facilitatedByContactId : null,
    isAnonymous: flag(input.isAnonymous),
    isRecurring: flag(input.isRecurring),
    thankYouSent: flag(input.thankYouSent),
    thankYouSentDate: checked.thankYouSentDate,
    notes: present(input.notes) ? input.notes : null,
    externalId,
    batchId: null,
    stationId: null,
    enteredByUserId: null,
    enteredByKeyId: null,
    enteredByName: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Adds gifts to a donor's lifetime total and moves the last gift date forward: one UPDATE
 * that is also the donor's row lock (on PostgreSQL) and tells whether the donor exists.
 */
export function addToDonorTotals(
  trx: Db,
  p: { accountId: string; contactId: string; cents: number; latestDate: string },
) {
  return trx
    .updateTable('contacts')
    .set((eb) => ({
      totalCents: eb('totalCents', '+', p.cents),
      lastDonationDate: eb
        .case()
        .when(eb.or([eb('lastDonationDate', 'is', null), eb('lastDonationDate', '<', p.latestDate)]))
        .then(p.latestDate)
        .else(eb.ref('lastDonationDate'))
        .end(),
    }))
    .where('id', '=', p.contactId)
    .where('accountId', '=', p.accountId);
}

const TOTALS_SLICE = 256;

/**
 * Adds many gifts to their donors' totals and last gift dates (the bulk import's chunk, a
 * station's page of its hub's gifts), the same arithmetic as addToDonorTotals; returns how many
 * donors it found. In contact id order. On SQLite (one
 * writer at a time) one UPDATE … FROM VALUES per slice of donors, its shapes (full slices,
 * power-of-two remainders) few enough to stay in the statement cache. On PostgreSQL one
 * prepared UPDATE per donor: the row locks are taken in id order, as every writer takes them.
 */
export async function addManyToDonorTotals(
  trx: Db,
  engine: Engine,
  accountId: string,
  donors: ReadonlyMap<string, { cents: number; latest: string }>,
): Promise<number> {
  const sorted = [...donors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let found = 0;
  if (engine === 'postgres') {
    const addTotals = prepare(trx, (p) =>
      addToDonorTotals(trx, { accountId: p(0), contactId: p(1), cents: p(2), latestDate: p(3) }),
    );
    for (const [contactId, d] of sorted)
      found += Number((await addTotals([accountId, contactId, d.cents, d.latest])).numAffectedRows ?? 0);
    return found;
  }
  let i = 0;
  while (i < sorted.length) {
    const left = sorted.length - i;
    const n = left >= TOTALS_SLICE ? TOTALS_SLICE : 2 ** Math.floor(Math.log2(left));
    const values: unknown[] = [];
    for (let k = i; k < i + n; k++) {
      const [contactId, d] = sorted[k]!;
      values.push(contactId, d.cents, d.latest);
    }
    values.push(accountId);
    const r = await trx.executeQuery(CompiledQuery.raw(totalsSql(n), values));
    found += Number(r.numAffectedRows ?? 0);
    i += n;
  }
  return found;
}

const totalsSqlCache = new Map<number, string>();
function totalsSql(n: number): string {
  let text = totalsSqlCache.get(n);
  if (text === undefined) {
    text = `with v(id, cents, latest) as (values ${Array.from({ length: n }, () => '(?, ?, ?)').join(', ')})
      update contacts set total_cents = total_cents + v.cents,
        last_donation_date = case when last_donation_date is null or last_donation_date < v.latest then v.latest else last_donation_date end
      from v where contacts.id = v.id and contacts.account_id = ?`;
    totalsSqlCache.set(n, text);
  }
  return text;
}

/**
 * How a donation is written: pushed or not, an import's reference, the gift-entry batch, and
 * at an event hub the station it was entered at (the station's key made the request).
 */
export interface DonationWriteOptions extends WriteOptions {
  externalId?: string | null;
  batchId?: string | null;
  /**
   * The station it was entered at. Absent: this GiftDesk's own station id when it is a station
   * of an event hub (so a gift with none was typed at the hub, at every end of the event), else
   * none.
   */
  stationId?: string | null;
  /** When it was entered where it was typed, when that was elsewhere (a station's create at its hub). */
  enteredAt?: string;
  /** Who entered it (createDonationOnce: the context's actor unless given). */
  enteredBy?: Actor | null;
  /**
   * Voided where it was typed before it was sent (a station's gift, at its hub): the gift is
   * recorded and voided in one transaction, with the reason typed there; an earlier create of
   * the same reference still completed here is voided too (createDonationOnce).
   */
  voided?: { reason: string | null };
}
