/**
 * A gift created in two statements on PostgreSQL, where each statement is a round trip and the
 * round trips are most of HQ's time (bench/RESULTS.md, POST /donations): one read of what the
 * rules look up (the referenced records in the account, the account's election defaults and
 * next election, this server's own station, a sync reference held already), then one write
 * (the reference, the donor's totals, the gift, the account's count, the change log) that runs
 * on its own, without BEGIN and COMMIT: one statement is one transaction, all or nothing, and
 * durable when it returns (synchronous_commit as for any commit).
 *
 * Only the common case takes this way: a gift with no donation account (no limit check), not
 * voided on arrival, nothing to run in its transaction; a gift typed in a gift-entry batch
 * takes it too, its batch checked open in the read as the ordinary way checks it. Anything the
 * two statements do not settle — a referenced record not found, the donor not found (or
 * deleted between them), a key or constraint refused — writes nothing and answers null, and
 * the caller creates the gift the ordinary way (insertDonation in a transaction), which gives
 * the same answers as ever, errors included, in the same order.
 */
import { CompiledQuery } from 'kysely';
import type { DonationCreateBody } from '#shared/schemas/donations.ts';
import type { ElectionType } from '#shared/enums.ts';
import type { DonationRow } from '../../db/schema.ts';
import { named } from '../../db/named.ts';
import type { Db } from '../../db/store.ts';
import { COUNTER_SLOTS } from '../counters.ts';
import { changeLogRow } from '../change-log.ts';
import { ReferenceHeld } from '../errors.ts';
import { chooseElectionFrom, explicitElection, type Election } from '../limits/elections.ts';
import {
  type DonationWriteOptions,
  checkDonation,
  donationCreatedEntry,
  giftReference,
  newDonationRow,
  present,
} from './rules.ts';

/** Serialization failure, deadlock: the statement is run again, as Store.write does. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * The lookups' optional checks: each is in the statement only when the gift names the record
 * (a batch must also be open: a closed one is the ordinary way's 409).
 */
const CHECKS = [
  ['campaign', 'campaigns', ''],
  ['committee', 'committees', ''],
  ['behalf', 'contacts', ''],
  ['facilitated', 'contacts', ''],
  ['batch', 'batches', ' and closed_at is null'],
] as const;

/**
 * What the rules look up, in one statement, with only the checks this gift needs (a statement's
 * planning is PostgreSQL's largest cost here: bench/RESULTS.md): values $1 account, $2 the
 * gift's day, then each id named, then the sync reference when there is one. A few shapes,
 * each built once.
 */
const lookupsSql = new Map<string, string>();
function lookups(given: readonly boolean[], reference: boolean): string {
  const key = `${given.map(Number).join('')}${Number(reference)}`;
  let text = lookupsSql.get(key);
  if (text === undefined) {
    let n = 2;
    const checks = CHECKS.flatMap(([as, table, also], i) =>
      given[i]
        ? [`exists (select 1 from ${table} where id = $${++n} and account_id = a.id${also}) as ${as}`]
        : [],
    );
    if (reference)
      checks.push(
        `exists (select 1 from donation_sync_references where account_id = a.id and reference = $${++n}) as held`,
      );
    text = named(`select a.default_election_type as det, a.default_election_year as dey,
  (select concat(e.election_type, ':', e.election_year) from elections e
    where e.account_id = a.id and e.election_date >= $2::text
    order by e.election_date, e.election_type limit 1) as nxt,
  (select station_id from sync_remotes where account_id = a.id and kind = 'hub' limit 1) as station${checks.map((c) => `,\n  ${c}`).join('')}
from accounts a where a.id = $1`);
    lookupsSql.set(key, text);
  }
  return text;
}

interface Lookups {
  det: ElectionType | null;
  dey: number | null;
  nxt: string | null;
  station: string | null;
  /** each only when checked: false when the record named is not the account's */
  campaign?: boolean;
  committee?: boolean;
  behalf?: boolean;
  facilitated?: boolean;
  batch?: boolean;
  held?: boolean;
}

/** The gift's own columns, in the order of its JSON record ($2). */
const COLUMNS = [
  'id',
  'account_id',
  'contact_id',
  'amount_cents',
  'donation_date',
  'payment_method',
  'status',
  'campaign_id',
  'committee_id',
  'donation_account_id',
  'election_type',
  'election_year',
  'on_behalf_of_contact_id',
  'facilitated_by_contact_id',
  'is_anonymous',
  'is_recurring',
  'thank_you_sent',
  'thank_you_sent_date',
  'notes',
  'external_id',
  'batch_id',
  'station_id',
  'entered_by_user_id',
  'entered_by_key_id',
  'entered_by_name',
  'created_at',
  'updated_at',
].join(', ');

/**
 * The write in one statement. Values: $1 account, $2 the gift's row as JSON, $3 donor,
 * $4 cents, $5 gift date, $6 counter slot, $7 change log's push, $8 the change log's time, and
 * with a sync reference $9 the reference. The reference goes first: when another create holds
 * it, nothing else is written (`kept` 0). The donor's UPDATE is its row lock, as in
 * insertDonation; the gift, the count and the change log follow only when it found the donor.
 * A reference kept for a gift not written (the donor gone) fails the reference's foreign key at
 * the statement's end, and so the whole statement.
 */
function writeSql(reference: boolean): string {
  return named(`with ${
    reference
      ? `r as (
  insert into donation_sync_references (account_id, reference, donation_id)
  select $1::text, $9::text, ($2::json)->>'id'
  on conflict (account_id, reference) do nothing
  returning 1),
`
      : ''
  }t as (
  update contacts set total_cents = total_cents + $4::bigint,
    last_donation_date = case when last_donation_date is null or last_donation_date < $5::timestamptz
      then $5::timestamptz else last_donation_date end
  where id = $3::text and account_id = $1::text${reference ? ' and exists (select 1 from r)' : ''}
  returning 1),
d as (
  insert into donations (${COLUMNS})
  select ${COLUMNS} from json_populate_record(null::donations, $2::json) where exists (select 1 from t)
  returning 1),
c as (
  insert into account_counter_slots as s (account_id, slot, contacts, donations)
  select $1::text, $6::integer, 0, 1 from d
  on conflict (account_id, slot) do update set donations = s.donations + 1),
l as (
  insert into change_log (account_id, entity_type, entity_id, op, fields, push, created_at)
  select $1::text, 'donation', ($2::json)->>'id', 'create', null, $7::integer, $8::timestamptz from d)
select ${reference ? '(select count(*) from r)::integer' : '1'} as kept, (select count(*) from d)::integer as made`);
}
const WRITE = writeSql(false);
const WRITE_WITH_REFERENCE = writeSql(true);

/** The row's fields as the table's columns (each name converted once per process). */
const columnOf = new Map<string, string>();
function asRecord(row: DonationRow): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    let column = columnOf.get(k);
    if (column === undefined) {
      column = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      columnOf.set(k, column);
    }
    record[column] = v;
  }
  return record;
}

/**
 * Creates the gift in two statements (outside any transaction: `db` is the store's pool), or
 * answers null when the ordinary way must (see the top of this file); throws ReferenceHeld as
 * insertDonation does. Both statements go over one connection taken from the pool once.
 */
export async function insertDonationInTwo(
  db: Db,
  input: DonationCreateBody,
  at: string,
  opts: DonationWriteOptions,
): Promise<DonationRow | null> {
  if (opts.voided || opts.onCreated || present(input.donationAccountId)) return null;
  return db.connection().execute((conn) => inTwo(conn, input, at, opts));
}

async function inTwo(
  db: Db,
  input: DonationCreateBody,
  at: string,
  opts: DonationWriteOptions,
): Promise<DonationRow | null> {
  let checked: ReturnType<typeof checkDonation>;
  let sent: Election | null;
  try {
    checked = checkDonation(input);
    sent = explicitElection(input);
  } catch {
    return null; // refused: the ordinary way says why, in its order
  }
  const reference = giftReference(input, opts);
  const day = checked.donationDate.slice(0, 10);
  const ids = [
    input.campaignId,
    input.committeeId,
    input.onBehalfOfContactId,
    input.facilitatedByContactId,
    opts.batchId,
  ];
  const named = ids.map(present);
  const found = (
    await db.executeQuery<Lookups>(
      CompiledQuery.raw(lookups(named, reference !== null), [
        input.accountId,
        day,
        ...ids.filter(present),
        ...(reference !== null ? [reference] : []),
      ]),
    )
  ).rows[0];
  if (!found || CHECKS.some(([as]) => found[as] === false)) return null;
  if (found.held && reference !== null) throw new ReferenceHeld(reference);
  const election = sent ?? chooseElectionFrom(day, found.det, found.dey, found.nxt);
  const row = newDonationRow(input, checked, election, at, {
    ...opts,
    stationId: opts.stationId === undefined ? found.station : opts.stationId,
  });
  const record = asRecord(row);
  const log = changeLogRow(donationCreatedEntry(row, opts.push, at));
  const values = [
    input.accountId,
    JSON.stringify(record),
    input.contactId,
    checked.cents,
    checked.donationDate,
    Math.floor(Math.random() * COUNTER_SLOTS),
    log.push,
    at,
    ...(reference !== null ? [reference] : []),
  ];
  for (let attempt = 1; ; attempt++) {
    try {
      const r = (
        await db.executeQuery<{ kept: number; made: number }>(
          CompiledQuery.raw(reference !== null ? WRITE_WITH_REFERENCE : WRITE, values),
        )
      ).rows[0];
      if (reference !== null && r?.kept === 0) throw new ReferenceHeld(reference);
      return r?.made === 1 ? row : null;
    } catch (err) {
      if (err instanceof ReferenceHeld) throw err;
      const code = (err as { code?: unknown }).code;
      if (attempt < 5 && typeof code === 'string' && RETRYABLE.has(code)) continue;
      // A key or constraint refused it (nothing was written): the ordinary way answers.
      if (typeof code === 'string' && /^2[23]/.test(code)) return null;
      throw err;
    }
  }
}
