/**
 * Campaigns, committees and donation accounts that came down from HQ (a sync pull): found by
 * name or id for linking, added (a donation account with HQ's limits), renamed to HQ's name,
 * and a campaign linked to its donation accounts. Logged with push = 0: HQ already has them.
 * The caller (electron/sync/reference-data/) runs these in its own transaction, together with
 * the id-map row that links the local record to its HQ id.
 */
import { newId } from '#shared/ids.ts';
import { dollarsToCents } from '#shared/money.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';

export type ReferenceKind = 'campaign' | 'committee' | 'donationAccount';

const TABLE = {
  campaign: 'campaigns',
  committee: 'committees',
  donationAccount: 'donationAccounts',
} as const;

/** A local reference record by exact name (case-insensitive), for linking by name. */
export async function referenceByName(
  db: Db,
  kind: ReferenceKind,
  accountId: string,
  name: string,
): Promise<Array<{ id: string; name: string }>> {
  return db
    .selectFrom(TABLE[kind])
    .select(['id', 'name'])
    .where('accountId', '=', accountId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.trim().toLowerCase()))
    .execute();
}

/** An account's reference records of one kind, by name. */
export async function listReferences(
  db: Db,
  kind: ReferenceKind,
  accountId: string,
): Promise<Array<{ id: string; name: string }>> {
  return db
    .selectFrom(TABLE[kind])
    .select(['id', 'name'])
    .where('accountId', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Whether a local reference record exists in the account (and its name). */
export async function getReference(
  db: Db,
  kind: ReferenceKind,
  accountId: string,
  id: string,
): Promise<{ id: string; name: string } | undefined> {
  return db
    .selectFrom(TABLE[kind])
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
}

/** HQ's limits of a donation account, decimal dollars (null: none). */
export interface PulledLimits {
  perElection?: number | null;
  perCycle?: number | null;
  perYear?: number | null;
  perDonor?: number | null;
}

const cents = (v: number | null | undefined): number | null => {
  if (v === null || v === undefined) return null;
  const c = dollarsToCents(v);
  return c === null || c < 0 ? null : c;
};

/**
 * Adds a campaign, committee or donation account that HQ has (push = 0). The name is HQ's,
 * trimmed and cut to the local limit.
 */
export async function insertPulledReference(
  trx: Db,
  kind: ReferenceKind,
  accountId: string,
  name: string,
  at: string,
  limits: PulledLimits = {},
): Promise<string> {
  const n = name.trim().slice(0, 200) || '(unnamed at HQ)';
  let id: string;
  switch (kind) {
    case 'campaign':
      id = newId('campaign');
      await trx.insertInto('campaigns').values({ id, accountId, name: n, createdAt: at }).execute();
      break;
    case 'committee':
      id = newId('committee');
      await trx.insertInto('committees').values({ id, accountId, name: n, createdAt: at }).execute();
      break;
    case 'donationAccount':
      id = newId('donationAccount');
      await trx
        .insertInto('donationAccounts')
        .values({
          id,
          accountId,
          name: n,
          limitPerElectionCents: cents(limits.perElection),
          limitPerCycleCents: cents(limits.perCycle),
          limitPerYearCents: cents(limits.perYear),
          limitPerDonorCents: cents(limits.perDonor),
          createdAt: at,
        })
        .execute();
      break;
  }
  await logChange(trx, {
    accountId,
    entityType: kind,
    entityId: id,
    op: 'create',
    fields: null,
    push: false,
    at,
  });
  return id;
}

/** Renames a linked reference record to HQ's name when it differs (push = 0). */
export async function renamePulledReference(
  trx: Db,
  kind: ReferenceKind,
  accountId: string,
  id: string,
  name: string,
  at: string,
): Promise<boolean> {
  const n = name.trim().slice(0, 200);
  if (!n) return false;
  const current = await getReference(trx, kind, accountId, id);
  if (!current || current.name === n) return false;
  await trx.updateTable(TABLE[kind]).set({ name: n }).where('id', '=', id).execute();
  await logChange(trx, {
    accountId,
    entityType: kind,
    entityId: id,
    op: 'update',
    fields: ['name'],
    push: false,
    at,
  });
  return true;
}

/** Links a local campaign to a local donation account (both pulled), once. */
export async function linkCampaignDonationAccount(
  trx: Db,
  campaignId: string,
  donationAccountId: string,
): Promise<void> {
  await trx
    .insertInto('campaignDonationAccounts')
    .values({ campaignId, donationAccountId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
