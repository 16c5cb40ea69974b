/**
 * How the hub reads each kind of the event's ledger for its feed (ledger-kinds.ts declares the
 * kinds). Snapshot kinds: the whole list, a query or two, read on every page to take its
 * fingerprint (the lists are small: an event's elections, letters, campaigns, committees,
 * donation accounts, custom fields and stations). Logged kinds: the records a page of the change
 * log names, one query per table for the whole page, never one per record.
 */
import { centsToDollars } from '#shared/money.ts';
import type {
  HubChanges,
  LedgerCampaign,
  LedgerElections,
  LedgerLetters,
  HubSnapshots,
} from '#shared/schemas/hub.ts';
import type { Db } from '../db/store.ts';
import { listCustomFields, readContacts } from '../domain/contacts/index.ts';

export async function readElections(db: Db, accountId: string): Promise<LedgerElections> {
  const account = await db
    .selectFrom('accounts')
    .select(['defaultElectionType', 'defaultElectionYear'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('elections')
    .select(['id', 'electionType', 'electionYear', 'electionDate', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('electionDate')
    .orderBy('electionType')
    .orderBy('id')
    .execute();
  return {
    elections: rows.map((r) => ({ ...r, electionYear: Number(r.electionYear) })),
    defaultElection:
      account?.defaultElectionType && account.defaultElectionYear
        ? { electionType: account.defaultElectionType, electionYear: Number(account.defaultElectionYear) }
        : null,
  };
}

export async function readLetters(db: Db, accountId: string): Promise<LedgerLetters> {
  const settings = await db
    .selectFrom('letterSettings')
    .select(['orgKind', 'organizationName', 'organizationAddress', 'signerName', 'signerTitle', 'updatedAt'])
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const templates = await db
    .selectFrom('letterTemplates')
    .select(['kind', 'heading', 'body', 'updatedAt'])
    .where('accountId', '=', accountId)
    .orderBy('kind')
    .execute();
  return { settings: settings ?? null, templates };
}

const dollars = (c: number | string | null) => (c === null ? null : centsToDollars(Number(c)));

export async function readDonationAccounts(
  db: Db,
  accountId: string,
): Promise<NonNullable<HubSnapshots['donationAccounts']>> {
  const rows = await db
    .selectFrom('donationAccounts')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    limits: {
      perElection: dollars(r.limitPerElectionCents),
      perCycle: dollars(r.limitPerCycleCents),
      perYear: dollars(r.limitPerYearCents),
      perDonor: dollars(r.limitPerDonorCents),
    },
    createdAt: r.createdAt,
  }));
}

export async function readCommittees(
  db: Db,
  accountId: string,
): Promise<NonNullable<HubSnapshots['committees']>> {
  return db
    .selectFrom('committees')
    .select(['id', 'name', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function readCampaigns(db: Db, accountId: string): Promise<LedgerCampaign[]> {
  const rows = await db
    .selectFrom('campaigns')
    .select(['id', 'name', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const offered = await db
    .selectFrom('campaignDonationAccounts as cd')
    .innerJoin('campaigns as c', 'c.id', 'cd.campaignId')
    .innerJoin('donationAccounts as d', 'd.id', 'cd.donationAccountId')
    .select(['cd.campaignId', 'd.id', 'd.name'])
    .where('c.accountId', '=', accountId)
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
  return rows.map((c) => ({
    ...c,
    donationAccounts: offered.filter((o) => o.campaignId === c.id).map((o) => ({ id: o.id, name: o.name })),
  }));
}

export async function readCustomFields(
  db: Db,
  accountId: string,
): Promise<NonNullable<HubSnapshots['customFields']>> {
  return listCustomFields(db, accountId);
}

export async function readStations(
  db: Db,
  accountId: string,
): Promise<NonNullable<HubSnapshots['stations']>> {
  return db
    .selectFrom('hubStations')
    .select(['id', 'name'])
    .where('accountId', '=', accountId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

/** The contacts a page names that are in the account, in their read shape with their custom fields. */
export async function readPageContacts(
  db: Db,
  accountId: string,
  ids: string[],
): Promise<HubChanges['contacts']> {
  return readContacts(db, accountId, ids);
}

/** The contacts a page names that are no longer in the account (deleted at the hub). */
export async function readDeletedContacts(db: Db, accountId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  // By id alone, the account tested on the rows (with it in the query SQLite reads every contact's index entry).
  const here = new Set(
    (await db.selectFrom('contacts').select(['id', 'accountId']).where('id', 'in', ids).execute())
      .filter((r) => r.accountId === accountId)
      .map((r) => r.id),
  );
  return ids.filter((id) => !here.has(id));
}
