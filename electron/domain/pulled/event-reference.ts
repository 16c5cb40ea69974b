/**
 * An event hub's reference data at one of its stations: campaigns (with the donation accounts
 * they offer), committees, donation accounts (with their limits) and custom field definitions
 * (with their options), kept under the hub's own ids. A station makes none of its own while it
 * belongs to an event, so the hub's id is the station's: gifts from any station name them the
 * same way. Logged with push = 0 (the hub has them). The caller (electron/sync/station/) runs
 * this in the transaction that applies a page of the hub's feed.
 */
import type { CustomFieldType } from '#shared/enums.ts';
import { dollarsToCents } from '#shared/money.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';

export interface EventLimits {
  perElection: number | null;
  perCycle: number | null;
  perYear: number | null;
  perDonor: number | null;
}

export interface EventReference {
  campaigns: ReadonlyArray<{ id: string; name: string; donationAccounts: ReadonlyArray<{ id: string }> }>;
  committees: ReadonlyArray<{ id: string; name: string }>;
  donationAccounts: ReadonlyArray<{ id: string; name: string; limits: EventLimits }>;
  customFields: ReadonlyArray<{
    id: string;
    name: string;
    type: CustomFieldType;
    archived: boolean;
    options: ReadonlyArray<{ id: string; name: string; retired: boolean }>;
  }>;
}

const cents = (v: number | null): number | null => {
  if (v === null) return null;
  const c = dollarsToCents(v);
  return c === null || c < 0 ? null : c;
};

const cut = (s: string, max: number) => s.trim().slice(0, max) || '(unnamed)';

/** Adds or renames one campaign or committee by the hub's id; true when something was written. */
async function upsertNamed(
  trx: Db,
  kind: 'campaign' | 'committee',
  accountId: string,
  rec: { id: string; name: string },
  at: string,
): Promise<boolean> {
  const name = cut(rec.name, 200);
  const row =
    kind === 'campaign'
      ? await trx
          .selectFrom('campaigns')
          .select(['name', 'accountId'])
          .where('id', '=', rec.id)
          .executeTakeFirst()
      : await trx
          .selectFrom('committees')
          .select(['name', 'accountId'])
          .where('id', '=', rec.id)
          .executeTakeFirst();
  if (row && (row.accountId !== accountId || row.name === name)) return false;
  if (row && kind === 'campaign')
    await trx.updateTable('campaigns').set({ name }).where('id', '=', rec.id).execute();
  else if (row) await trx.updateTable('committees').set({ name }).where('id', '=', rec.id).execute();
  else if (kind === 'campaign')
    await trx.insertInto('campaigns').values({ id: rec.id, accountId, name, createdAt: at }).execute();
  else await trx.insertInto('committees').values({ id: rec.id, accountId, name, createdAt: at }).execute();
  await logChange(trx, {
    accountId,
    entityType: kind,
    entityId: rec.id,
    op: row ? 'update' : 'create',
    fields: row ? ['name'] : null,
    push: false,
    at,
  });
  return true;
}

async function upsertDonationAccount(
  trx: Db,
  accountId: string,
  rec: EventReference['donationAccounts'][number],
  at: string,
): Promise<boolean> {
  const values = {
    name: cut(rec.name, 200),
    limitPerElectionCents: cents(rec.limits.perElection),
    limitPerCycleCents: cents(rec.limits.perCycle),
    limitPerYearCents: cents(rec.limits.perYear),
    limitPerDonorCents: cents(rec.limits.perDonor),
  };
  const row = await trx
    .selectFrom('donationAccounts')
    .selectAll()
    .where('id', '=', rec.id)
    .executeTakeFirst();
  if (row && row.accountId !== accountId) return false;
  if (
    row &&
    row.name === values.name &&
    row.limitPerElectionCents === values.limitPerElectionCents &&
    row.limitPerCycleCents === values.limitPerCycleCents &&
    row.limitPerYearCents === values.limitPerYearCents &&
    row.limitPerDonorCents === values.limitPerDonorCents
  )
    return false;
  if (row) await trx.updateTable('donationAccounts').set(values).where('id', '=', rec.id).execute();
  else
    await trx
      .insertInto('donationAccounts')
      .values({ id: rec.id, accountId, ...values, createdAt: at })
      .execute();
  await logChange(trx, {
    accountId,
    entityType: 'donationAccount',
    entityId: rec.id,
    op: row ? 'update' : 'create',
    fields: row ? ['name', 'limits'] : null,
    push: false,
    at,
  });
  return true;
}

/** A campaign offers exactly the donation accounts the hub says it offers (those here). */
async function setCampaignAccounts(
  trx: Db,
  accountId: string,
  campaignId: string,
  accountIds: readonly string[],
): Promise<void> {
  const here =
    accountIds.length === 0
      ? []
      : (
          await trx
            .selectFrom('donationAccounts')
            .select('id')
            .where('accountId', '=', accountId)
            .where('id', 'in', accountIds)
            .execute()
        ).map((r) => r.id);
  const now = (
    await trx
      .selectFrom('campaignDonationAccounts')
      .select('donationAccountId')
      .where('campaignId', '=', campaignId)
      .execute()
  ).map((r) => r.donationAccountId);
  const want = [...new Set(accountIds.filter((id) => here.includes(id)))];
  if (now.length === want.length && want.every((id) => now.includes(id))) return;
  await trx.deleteFrom('campaignDonationAccounts').where('campaignId', '=', campaignId).execute();
  for (const donationAccountId of want) {
    await trx
      .insertInto('campaignDonationAccounts')
      .values({ campaignId, donationAccountId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** A custom field definition and its options, by the hub's ids (a name held by another field is skipped). */
async function upsertCustomField(
  trx: Db,
  accountId: string,
  f: EventReference['customFields'][number],
  position: number,
  at: string,
): Promise<boolean> {
  const name = cut(f.name, 100);
  const archivedAt = f.archived ? at : null;
  const row = await trx.selectFrom('customFields').selectAll().where('id', '=', f.id).executeTakeFirst();
  if (row && row.accountId !== accountId) return false;
  // Field names are unique per account: a name another field holds here is not taken.
  const clash = await trx
    .selectFrom('customFields')
    .select('id')
    .where('accountId', '=', accountId)
    .where('nameKey', '=', name.toLowerCase())
    .where('id', '!=', f.id)
    .executeTakeFirst();
  if (clash) return false;
  if (!row) {
    await trx
      .insertInto('customFields')
      .values({
        id: f.id,
        accountId,
        name,
        nameKey: name.toLowerCase(),
        fieldType: f.type,
        position,
        archivedAt,
        createdAt: at,
      })
      .execute();
  } else if (row.name !== name || (row.archivedAt === null) !== (archivedAt === null)) {
    await trx
      .updateTable('customFields')
      .set({
        name,
        nameKey: name.toLowerCase(),
        archivedAt: archivedAt === null ? null : (row.archivedAt ?? at),
      })
      .where('id', '=', f.id)
      .execute();
  }
  for (const [i, o] of f.options.entries()) {
    const opt = await trx
      .selectFrom('customFieldOptions')
      .selectAll()
      .where('id', '=', o.id)
      .executeTakeFirst();
    const retiredAt = o.retired ? (opt?.retiredAt ?? at) : null;
    if (!opt)
      await trx
        .insertInto('customFieldOptions')
        .values({ id: o.id, fieldId: f.id, name: cut(o.name, 100), position: i, retiredAt })
        .execute();
    else if (opt.name !== o.name || opt.retiredAt !== retiredAt)
      await trx
        .updateTable('customFieldOptions')
        .set({ name: cut(o.name, 100), retiredAt })
        .where('id', '=', o.id)
        .execute();
  }
  return true;
}

/* Each kind of the hub's reference data, brought to the hub's list (records the hub no longer
 * lists are left: a gift here may name them). Each returns how many records were added or
 * changed. */

export async function applyEventDonationAccounts(
  trx: Db,
  accountId: string,
  list: EventReference['donationAccounts'],
  at: string,
): Promise<number> {
  let n = 0;
  for (const d of list) if (await upsertDonationAccount(trx, accountId, d, at)) n++;
  return n;
}

export async function applyEventCommittees(
  trx: Db,
  accountId: string,
  list: EventReference['committees'],
  at: string,
): Promise<number> {
  let n = 0;
  for (const c of list) if (await upsertNamed(trx, 'committee', accountId, c, at)) n++;
  return n;
}

/** Campaigns with the donation accounts they offer (ids already the station's). */
export async function applyEventCampaigns(
  trx: Db,
  accountId: string,
  list: EventReference['campaigns'],
  at: string,
): Promise<number> {
  let n = 0;
  for (const c of list) {
    if (await upsertNamed(trx, 'campaign', accountId, c, at)) n++;
    await setCampaignAccounts(
      trx,
      accountId,
      c.id,
      c.donationAccounts.map((d) => d.id),
    );
  }
  return n;
}

export async function applyEventCustomFields(
  trx: Db,
  accountId: string,
  list: EventReference['customFields'],
  at: string,
): Promise<number> {
  let n = 0;
  for (const [i, f] of list.entries()) if (await upsertCustomField(trx, accountId, f, i, at)) n++;
  return n;
}

/** All four at once (a page of a hub of an earlier version carries them together). */
export async function applyEventReference(
  trx: Db,
  accountId: string,
  ref: EventReference,
  at: string,
): Promise<number> {
  return (
    (await applyEventDonationAccounts(trx, accountId, ref.donationAccounts, at)) +
    (await applyEventCommittees(trx, accountId, ref.committees, at)) +
    (await applyEventCampaigns(trx, accountId, ref.campaigns, at)) +
    (await applyEventCustomFields(trx, accountId, ref.customFields, at))
  );
}
