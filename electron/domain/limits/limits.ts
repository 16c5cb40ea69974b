/**
 * Contribution limits (D6): checked, never enforced. A gift over a limit is saved and
 * answered like any other, and flagged for the treasurer with the limit, the window and the
 * donor's total in it. The flag is resolved by marking it reviewed, refunding the gift or
 * redesignating it to another election; each action is kept in the gift's history.
 */
import type { z } from 'zod';
import { LIMIT_KINDS, type ElectionType, type FlagState, type LimitKind } from '#shared/enums.ts';
import type { Flag } from '#shared/schemas/extensions.ts';
import { newId } from '#shared/ids.ts';
import { centsToDollars } from '#shared/money.ts';
import type { Selectable } from 'kysely';
import type {
  DonationAccountRow,
  DonationHistoryTable,
  DonationRow,
  LimitFlagsTable,
} from '../../db/schema.ts';
import { dropDonorDeltas } from '../../db/donor-total-deltas.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import type { DomainContext } from '../context.ts';
import { type Election, limitWindow } from './elections.ts';
import { DomainError, invalidField } from '../errors.ts';

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

function historyRow(
  donationId: string,
  action: string,
  note: string | null,
  detail: Record<string, unknown> | null,
  at: string,
): Selectable<DonationHistoryTable> {
  return {
    id: newId('history'),
    donationId,
    action,
    note,
    detail: detail ? JSON.stringify(detail) : null,
    createdAt: at,
  };
}

export async function addHistory(
  trx: Db,
  donationId: string,
  action: string,
  note: string | null,
  detail: Record<string, unknown> | null,
  at: string,
): Promise<void> {
  await trx
    .insertInto('donationHistory')
    .values(historyRow(donationId, action, note, detail, at))
    .execute();
}

/**
 * Recomputes a contact's lifetime total and last gift from its completed donations (an import's
 * gifts still pending in donor_total_deltas included: their deltas are dropped).
 */
export async function recomputeContactTotals(trx: Db, contactId: string): Promise<void> {
  await dropDonorDeltas(trx, contactId); // an import's pending gifts are counted below
  const r = await trx
    .selectFrom('donations')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amountCents'), eb.lit(0)).as('cents'),
      eb.fn.max('donationDate').as('last'),
    ])
    .where('contactId', '=', contactId)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('contacts')
    .set({ totalCents: Number(r.cents), lastDonationDate: (r.last as string | null) ?? null })
    .where('id', '=', contactId)
    .execute();
}

/* ---------------- the review queue ---------------- */

export type FlagView = z.infer<typeof Flag>;

export async function listFlags(
  ctx: DomainContext,
  accountId: string,
  state: 'open' | 'all' = 'open',
): Promise<FlagView[]> {
  let q = ctx.store.db
    .selectFrom('limitFlags as f')
    .innerJoin('donations as d', 'd.id', 'f.donationId')
    .innerJoin('contacts as c', 'c.id', 'd.contactId')
    .innerJoin('donationAccounts as a', 'a.id', 'd.donationAccountId')
    .select([
      'f.id',
      'f.donationId',
      'd.contactId',
      'c.firstName',
      'c.lastName',
      'd.amountCents',
      'd.donationDate',
      'd.donationAccountId',
      'a.name as accountName',
      'd.electionType',
      'd.electionYear',
      'f.limitKind',
      'f.windowKey',
      'f.limitCents',
      'f.donorTotalCents',
      'f.state',
      'f.createdAt',
      'f.resolvedAt',
      'f.resolutionNote',
    ])
    .where('f.accountId', '=', accountId);
  if (state === 'open') q = q.where('f.state', '=', 'open');
  const rows = await q.orderBy('f.createdAt', 'desc').orderBy('f.id', 'desc').execute();
  return rows.map((r) => ({
    id: r.id,
    donationId: r.donationId,
    contactId: r.contactId,
    contactName: `${r.firstName} ${r.lastName}`.trim(),
    donationAmount: centsToDollars(Number(r.amountCents)),
    donationDate: r.donationDate,
    donationAccountId: r.donationAccountId ?? '',
    donationAccountName: r.accountName,
    electionType: r.electionType,
    electionYear: r.electionYear,
    limitKind: r.limitKind as LimitKind,
    window: r.windowKey,
    limit: centsToDollars(Number(r.limitCents)),
    donorTotal: centsToDollars(Number(r.donorTotalCents)),
    overBy: centsToDollars(Number(r.donorTotalCents) - Number(r.limitCents)),
    state: r.state as FlagState,
    createdAt: r.createdAt,
    resolvedAt: r.resolvedAt,
    resolutionNote: r.resolutionNote,
  }));
}

export type FlagAction =
  | { action: 'review'; note?: string | null }
  | { action: 'refund'; note?: string | null }
  | { action: 'redesignate'; electionType: ElectionType; electionYear: number; note?: string | null };

export async function resolveFlag(
  ctx: DomainContext,
  accountId: string,
  flagId: string,
  act: FlagAction,
): Promise<FlagView> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const flag = await trx
      .selectFrom('limitFlags')
      .selectAll()
      .where('id', '=', flagId)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!flag)
      throw new DomainError('not_found', 'flag_not_found', `Flag ${flagId} was not found`, [
        { field: 'id', issue: 'does not exist in this account' },
      ]);
    if (flag.state !== 'open')
      throw new DomainError('conflict', 'flag_resolved', `Flag ${flagId} is already ${flag.state}`, [
        { field: 'id', issue: `is already ${flag.state}` },
      ]);
    const donation = await trx
      .selectFrom('donations')
      .selectAll()
      .where('id', '=', flag.donationId)
      .executeTakeFirstOrThrow();
    const note = act.note ?? null;
    if (act.action === 'review') {
      await trx
        .updateTable('limitFlags')
        .set({ state: 'reviewed', resolvedAt: at, resolutionNote: note })
        .where('id', '=', flagId)
        .execute();
      await addHistory(trx, donation.id, 'reviewed', note, { flagId }, at);
      return;
    }
    if (act.action === 'refund') {
      await trx
        .updateTable('donations')
        .set({ status: 'refunded', updatedAt: at })
        .where('id', '=', donation.id)
        .execute();
      // every open flag on the gift is settled by the refund
      await trx
        .updateTable('limitFlags')
        .set({ state: 'refunded', resolvedAt: at, resolutionNote: note })
        .where('donationId', '=', donation.id)
        .where('state', '=', 'open')
        .execute();
      await recomputeContactTotals(trx, donation.contactId);
      await addHistory(trx, donation.id, 'refunded', note, { flagId, from: 'completed', to: 'refunded' }, at);
      await logChange(trx, {
        accountId,
        entityType: 'donation',
        entityId: donation.id,
        op: 'update',
        fields: ['status'],
        at,
      });
      return;
    }
    if (act.electionType === donation.electionType && act.electionYear === donation.electionYear) {
      throw invalidField('electionYear', 'is the election the gift already counts toward');
    }
    await trx
      .updateTable('donations')
      .set({ electionType: act.electionType, electionYear: act.electionYear, updatedAt: at })
      .where('id', '=', donation.id)
      .execute();
    await trx
      .updateTable('limitFlags')
      .set({ state: 'redesignated', resolvedAt: at, resolutionNote: note })
      .where('id', '=', flagId)
      .execute();
    await addHistory(
      trx,
      donation.id,
      'redesignated',
      note,
      {
        flagId,
        from: { electionType: donation.electionType, electionYear: donation.electionYear },
        to: { electionType: act.electionType, electionYear: act.electionYear },
      },
      at,
    );
    await logChange(trx, {
      accountId,
      entityType: 'donation',
      entityId: donation.id,
      op: 'update',
      fields: ['electionType', 'electionYear'],
      at,
    });
    // The gift now counts toward another election: check that election's limit afresh.
    const moved = await trx
      .selectFrom('donations')
      .selectAll()
      .where('id', '=', donation.id)
      .executeTakeFirstOrThrow();
    if (flag.limitKind === 'per_election') await checkLimits(trx, moved, at, ['per_election']);
  });
  const all = await listFlags(ctx, accountId, 'all');
  return all.find((f) => f.id === flagId)!;
}

export async function donationHistory(ctx: DomainContext, donationId: string) {
  const rows = await ctx.store.db
    .selectFrom('donationHistory')
    .selectAll()
    .where('donationId', '=', donationId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    note: r.note,
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    at: r.createdAt,
  }));
}
