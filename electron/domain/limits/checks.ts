/**
 * Contribution limits (D6): checked, never enforced. A gift over a limit is saved and
 * answered like any other, and flagged for the treasurer with the limit, the window and the
 * donor's total in it. Here: the limits an account sets, the donor's total within a limit's
 * window, and the check a saved gift goes through in its own transaction (an import chunk's
 * gifts are checked at once in for-import.ts; the flags are reviewed in flags.ts).
 */
import { LIMIT_KINDS, type LimitKind } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { centsToDollars } from '#shared/money.ts';
import type { Selectable } from 'kysely';
import type {
  DonationAccountRow,
  DonationHistoryTable,
  DonationRow,
  LimitFlagsTable,
} from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { type Election, limitWindow } from './elections.ts';
import { historyRow } from './history.ts';

const LIMIT_COLUMN: Record<LimitKind, keyof DonationAccountRow> = {
  per_election: 'limitPerElectionCents',
  per_cycle: 'limitPerCycleCents',
  per_year: 'limitPerYearCents',
  per_donor: 'limitPerDonorCents',
};

export const LIMIT_LABEL: Record<LimitKind, string> = {
  per_election: 'per election',
  per_cycle: 'per two-year cycle',
  per_year: 'per calendar year',
  per_donor: 'per donor (lifetime)',
};

/** The donor's completed total to a donation account within one limit window, in cents. */
export async function donorTotalInWindow(
  db: Db,
  p: {
    donationAccountId: string;
    contactId: string;
    kind: LimitKind;
    donationDate: string;
    election: Election;
  },
): Promise<number> {
  const w = limitWindow(p.kind, p.donationDate, p.election);
  let q = db
    .selectFrom('donations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amountCents'), eb.lit(0)).as('cents'))
    .where('donationAccountId', '=', p.donationAccountId)
    .where('contactId', '=', p.contactId)
    .where('status', '=', 'completed');
  if (w.from && w.to) q = q.where('donationDate', '>=', w.from).where('donationDate', '<=', w.to);
  if (w.election)
    q = q
      .where('electionType', '=', w.election.electionType)
      .where('electionYear', '=', w.election.electionYear);
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.cents);
}

/**
 * Checks a saved donation against its donation account's limits and flags every limit it
 * puts the donor over. Runs in the donation's own transaction. Returns the flags made.
 */
export async function checkLimits(
  trx: Db,
  donation: DonationRow,
  at: string,
  only?: LimitKind[],
): Promise<number> {
  if (!donation.donationAccountId || donation.status !== 'completed') return 0;
  const account = await trx
    .selectFrom('donationAccounts')
    .selectAll()
    .where('id', '=', donation.donationAccountId)
    .executeTakeFirst();
  if (!account) return 0;
  const election: Election = { electionType: donation.electionType, electionYear: donation.electionYear };
  let made = 0;
  for (const [kind, limit] of accountLimits(account, only)) {
    const total = await donorTotalInWindow(trx, {
      donationAccountId: account.id,
      contactId: donation.contactId,
      kind,
      donationDate: donation.donationDate,
      election,
    });
    if (total <= limit) continue;
    const { flag, history } = flagRows(donation, kind, limit, total, at);
    await trx.insertInto('limitFlags').values(flag).execute();
    await trx.insertInto('donationHistory').values(history).execute();
    made += 1;
  }
  return made;
}

/** The limits a donation account sets, in cents, in LIMIT_KINDS order (or only the kinds asked). */
export function accountLimits(
  account: DonationAccountRow,
  only?: readonly LimitKind[],
): Array<[LimitKind, number]> {
  const out: Array<[LimitKind, number]> = [];
  for (const kind of only ?? LIMIT_KINDS) {
    const raw = account[LIMIT_COLUMN[kind]];
    if (raw !== null && raw !== undefined) out.push([kind, Number(raw)]);
  }
  return out;
}

/** The flag and its history entry for a gift that put its donor over a limit (total > limit). */
export function flagRows(
  donation: DonationRow,
  kind: LimitKind,
  limit: number,
  total: number,
  at: string,
): { flag: Selectable<LimitFlagsTable>; history: Selectable<DonationHistoryTable> } {
  const election: Election = { electionType: donation.electionType, electionYear: donation.electionYear };
  const w = limitWindow(kind, donation.donationDate, election);
  const id = newId('flag');
  return {
    flag: {
      id,
      accountId: donation.accountId,
      donationId: donation.id,
      limitKind: kind,
      windowKey: w.key,
      limitCents: limit,
      donorTotalCents: total,
      state: 'open',
      createdAt: at,
      resolvedAt: null,
      resolutionNote: null,
    },
    history: historyRow(
      donation.id,
      'flagged',
      null,
      {
        flagId: id,
        limitKind: kind,
        window: w.key,
        limit: centsToDollars(limit),
        donorTotal: centsToDollars(total),
      },
      at,
    ),
  };
}
