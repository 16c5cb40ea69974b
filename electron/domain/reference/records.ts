/**
 * Reference records a gift is credited to: campaigns (with their donation accounts),
 * committees, and donation accounts with contribution limits. Extensions beyond the spec.
 */
import { newId } from '#shared/ids.ts';
import { centsToDollars, dollarsToCents } from '#shared/money.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import type { DomainContext } from '../context.ts';
import { invalidField, notFound } from '../errors.ts';

export interface Limits {
  perElection: number | null;
  perCycle: number | null;
  perYear: number | null;
  perDonor: number | null;
}

function requireName(name: string): string {
  const n = name.trim();
  if (!n) throw invalidField('name', 'must not be empty');
  if (n.length > 200) throw invalidField('name', 'must be at most 200 characters');
  return n;
}

const toCents = (field: string, v: number | null | undefined): number | null => {
  if (v === null || v === undefined) return null;
  const c = dollarsToCents(v);
  if (c === null || c < 0) throw invalidField(field, 'must be a non-negative whole number of cents');
  return c;
};
const fromCents = (v: number | null): number | null => (v === null ? null : centsToDollars(Number(v)));

/* ---------------- donation accounts ---------------- */

export async function createDonationAccount(
  ctx: DomainContext,
  input: { accountId: string; name: string } & Partial<Limits>,
) {
  const id = newId('donationAccount');
  const at = ctx.now();
  const row = {
    id,
    accountId: input.accountId,
    name: requireName(input.name),
    limitPerElectionCents: toCents('perElection', input.perElection),
    limitPerCycleCents: toCents('perCycle', input.perCycle),
    limitPerYearCents: toCents('perYear', input.perYear),
    limitPerDonorCents: toCents('perDonor', input.perDonor),
    createdAt: at,
  };
  await ctx.store.write(async (trx) => {
    await trx.insertInto('donationAccounts').values(row).execute();
    await logChange(trx, {
      accountId: input.accountId,
      entityType: 'donationAccount',
      entityId: id,
      op: 'create',
      at,
    });
  });
  return (await getDonationAccount(ctx.store.db, input.accountId, id))!;
}

export async function updateDonationAccountLimits(
  ctx: DomainContext,
  accountId: string,
  id: string,
  input: Partial<Limits> & { name?: string },
) {
  const patch: Record<string, string | number | null> = {};
  if (input.name !== undefined) patch.name = requireName(input.name);
  if (input.perElection !== undefined)
    patch.limitPerElectionCents = toCents('perElection', input.perElection);
  if (input.perCycle !== undefined) patch.limitPerCycleCents = toCents('perCycle', input.perCycle);
  if (input.perYear !== undefined) patch.limitPerYearCents = toCents('perYear', input.perYear);
  if (input.perDonor !== undefined) patch.limitPerDonorCents = toCents('perDonor', input.perDonor);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (!(await getDonationAccount(trx, accountId, id))) throw notFound('donation account', 'id', id);
    if (Object.keys(patch).length > 0)
      await trx.updateTable('donationAccounts').set(patch).where('id', '=', id).execute();
    await logChange(trx, {
      accountId,
      entityType: 'donationAccount',
      entityId: id,
      op: 'update',
      fields: Object.keys(input),
      at,
    });
  });
  return (await getDonationAccount(ctx.store.db, accountId, id))!;
}

export async function getDonationAccount(db: Db, accountId: string, id: string) {
  const r = await db
    .selectFrom('donationAccounts')
    .selectAll()
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    name: r.name,
    limits: {
      perElection: fromCents(r.limitPerElectionCents),
      perCycle: fromCents(r.limitPerCycleCents),
      perYear: fromCents(r.limitPerYearCents),
      perDonor: fromCents(r.limitPerDonorCents),
    } satisfies Limits,
    createdAt: r.createdAt,
  };
}

export async function listDonationAccounts(ctx: DomainContext, accountId: string) {
  const rows = await ctx.store.db
    .selectFrom('donationAccounts')
    .select('id')
    .where('accountId', '=', accountId)
    .orderBy('name')
    .execute();
  return Promise.all(rows.map(async (r) => (await getDonationAccount(ctx.store.db, accountId, r.id))!));
}

/* ---------------- campaigns ---------------- */

export async function createCampaign(
  ctx: DomainContext,
  input: { accountId: string; name: string; donationAccountIds?: string[] },
) {
  const id = newId('campaign');
  const at = ctx.now();
  const name = requireName(input.name);
  await ctx.store.write(async (trx) => {
    for (const [i, dac] of (input.donationAccountIds ?? []).entries()) {
      if (!(await getDonationAccount(trx, input.accountId, dac)))
        throw notFound('donation account', `donationAccountIds[${i}]`, dac);
    }
    await trx
      .insertInto('campaigns')
      .values({ id, accountId: input.accountId, name, createdAt: at })
      .execute();
    for (const dac of new Set(input.donationAccountIds ?? [])) {
      await trx
        .insertInto('campaignDonationAccounts')
        .values({ campaignId: id, donationAccountId: dac })
        .execute();
    }
    await logChange(trx, {
      accountId: input.accountId,
      entityType: 'campaign',
      entityId: id,
      op: 'create',
      at,
    });
  });
  return (await getCampaign(ctx.store.db, input.accountId, id))!;
}

/** Rename a campaign and/or replace the donation accounts it offers (the list is sent whole). */
export async function updateCampaign(
  ctx: DomainContext,
  accountId: string,
  id: string,
  input: { name?: string; donationAccountIds?: string[] },
) {
  const name = input.name === undefined ? undefined : requireName(input.name);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (
      !(await trx
        .selectFrom('campaigns')
        .select('id')
        .where('id', '=', id)
        .where('accountId', '=', accountId)
        .executeTakeFirst())
    )
      throw notFound('campaign', 'id', id);
    for (const [i, dac] of (input.donationAccountIds ?? []).entries()) {
      if (!(await getDonationAccount(trx, accountId, dac)))
        throw notFound('donation account', `donationAccountIds[${i}]`, dac);
    }
    if (name !== undefined) await trx.updateTable('campaigns').set({ name }).where('id', '=', id).execute();
    if (input.donationAccountIds !== undefined) {
      await trx.deleteFrom('campaignDonationAccounts').where('campaignId', '=', id).execute();
      for (const dac of new Set(input.donationAccountIds)) {
        await trx
          .insertInto('campaignDonationAccounts')
          .values({ campaignId: id, donationAccountId: dac })
          .execute();
      }
    }
    await logChange(trx, {
      accountId,
      entityType: 'campaign',
      entityId: id,
      op: 'update',
      fields: Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined),
      at,
    });
  });
  return (await getCampaign(ctx.store.db, accountId, id))!;
}

export async function getCampaign(db: Db, accountId: string, id: string) {
  const c = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!c) return undefined;
  const links = await db
    .selectFrom('campaignDonationAccounts as l')
    .innerJoin('donationAccounts as a', 'a.id', 'l.donationAccountId')
    .select(['a.id', 'a.name'])
    .where('l.campaignId', '=', id)
    .orderBy('a.name')
    .execute();
  const totals = await db
    .selectFrom('donations')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amountCents'), eb.lit(0)).as('cents'),
      eb.fn.countAll<number>().as('n'),
    ])
    .where('campaignId', '=', id)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  return {
    id: c.id,
    name: c.name,
    donationAccounts: links,
    totalRaised: centsToDollars(Number(totals.cents)),
    donationCount: Number(totals.n),
    createdAt: c.createdAt,
  };
}

export async function listCampaigns(ctx: DomainContext, accountId: string) {
  const rows = await ctx.store.db
    .selectFrom('campaigns')
    .select('id')
    .where('accountId', '=', accountId)
    .orderBy('name')
    .execute();
  return Promise.all(rows.map(async (r) => (await getCampaign(ctx.store.db, accountId, r.id))!));
}

export async function requireCampaign(ctx: DomainContext, accountId: string, id: string) {
  const c = await getCampaign(ctx.store.db, accountId, id);
  if (!c) throw notFound('campaign', 'id', id);
  return c;
}

/* ---------------- committees ---------------- */

export async function createCommittee(ctx: DomainContext, input: { accountId: string; name: string }) {
  const id = newId('committee');
  const at = ctx.now();
  const name = requireName(input.name);
  await ctx.store.write(async (trx) => {
    await trx
      .insertInto('committees')
      .values({ id, accountId: input.accountId, name, createdAt: at })
      .execute();
    await logChange(trx, {
      accountId: input.accountId,
      entityType: 'committee',
      entityId: id,
      op: 'create',
      at,
    });
  });
  return { id, name, createdAt: at };
}

export async function requireCommittee(ctx: DomainContext, accountId: string, id: string) {
  const c = await ctx.store.db
    .selectFrom('committees')
    .select(['id', 'name', 'createdAt'])
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!c) throw notFound('committee', 'id', id);
  return c;
}

export async function requireDonationAccount(ctx: DomainContext, accountId: string, id: string) {
  const a = await getDonationAccount(ctx.store.db, accountId, id);
  if (!a) throw notFound('donation account', 'id', id);
  return a;
}

export async function listCommittees(ctx: DomainContext, accountId: string) {
  return ctx.store.db
    .selectFrom('committees')
    .select(['id', 'name', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('name')
    .execute();
}

export async function updateCommittee(
  ctx: DomainContext,
  accountId: string,
  id: string,
  input: { name?: string },
) {
  const name = input.name === undefined ? undefined : requireName(input.name);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (
      !(await trx
        .selectFrom('committees')
        .select('id')
        .where('id', '=', id)
        .where('accountId', '=', accountId)
        .executeTakeFirst())
    )
      throw notFound('committee', 'id', id);
    if (name !== undefined) await trx.updateTable('committees').set({ name }).where('id', '=', id).execute();
    await logChange(trx, {
      accountId,
      entityType: 'committee',
      entityId: id,
      op: 'update',
      fields: input.name === undefined ? [] : ['name'],
      at,
    });
  });
  return (await getCommittee(ctx.store.db, accountId, id))!;
}

async function getCommittee(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('committees')
    .select(['id', 'name', 'createdAt'])
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
}
