/**
 * The treasurer's review queue (D6): the gifts flagged over a limit, with the donor, the
 * limit, the window and how far over. A flag is resolved by marking it reviewed, refunding
 * the gift or redesignating it to another election (whose limit is then checked afresh); each
 * action is kept in the gift's history.
 */
import type { z } from 'zod';
import type { ElectionType, FlagState, LimitKind } from '#shared/enums.ts';
import type { Flag } from '#shared/schemas/extensions.ts';
import { centsToDollars } from '#shared/money.ts';
import { logChange } from '../change-log.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidField } from '../errors.ts';
import { checkLimits } from './checks.ts';
import { addHistory, recomputeContactTotals } from './history.ts';

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
      await addHistory(trx, donation.id, 'reviewed', note, { flagId }, at, ctx.actor);
      // Nothing for HQ (push = 0), but an event hub's stations read the review off the log.
      await logChange(trx, {
        accountId,
        entityType: 'donation',
        entityId: donation.id,
        op: 'update',
        fields: ['flags'],
        push: false,
        at,
      });
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
      await addHistory(
        trx,
        donation.id,
        'refunded',
        note,
        refundDetail(flagId, donation.status),
        at,
        ctx.actor,
      );
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
      moveDetail(flagId, donation, act),
      at,
      ctx.actor,
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

/** A refund's history detail: the flag, and the status before and after. */
function refundDetail(flagId: string, status: string): Record<string, unknown> {
  return {
    flagId,
    from: 'completed',
    to: 'refunded',
    fields: ['status'],
    changes: [{ field: 'status', before: status, after: 'refunded' }],
  };
}

/** A redesignation's history detail: the flag, the election it left and the one it went to. */
function moveDetail(
  flagId: string,
  was: { electionType: string; electionYear: number },
  to: { electionType: string; electionYear: number },
): Record<string, unknown> {
  return {
    flagId,
    from: { electionType: was.electionType, electionYear: was.electionYear },
    to: { electionType: to.electionType, electionYear: to.electionYear },
    fields: ['electionType', 'electionYear'],
    changes: [
      { field: 'electionType', before: was.electionType, after: to.electionType },
      { field: 'electionYear', before: was.electionYear, after: to.electionYear },
    ],
  };
}
