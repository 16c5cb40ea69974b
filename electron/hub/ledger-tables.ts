/**
 * Every table of the database, classified once: mirrored by a kind of the event's ledger
 * (ledger-kinds.ts), or a GiftDesk's own, with the reason a station keeps its own. The record
 * is keyed by the schema's tables, so a table added to `Database` without a line here does not
 * compile; test/hub/ledger-kinds.test.ts also lists the tables of a migrated SQLite database
 * (the search index and the migrations' own tables, which the schema does not describe, are in
 * ENGINE_TABLES) and fails on one that is neither.
 */
import type { LedgerKindName, TableName } from './ledger-kinds.ts';

export type TableClass = { kind: LedgerKindName; note?: string } | { own: string };

export const LEDGER_TABLES: Record<TableName, TableClass> = {
  accounts: {
    kind: 'elections',
    note: 'its default election only; the account itself is made at the join under the hub’s id and name',
  },
  elections: { kind: 'elections' },
  letterSettings: { kind: 'letters' },
  letterTemplates: { kind: 'letters' },
  donationAccounts: { kind: 'donationAccounts' },
  committees: { kind: 'committees' },
  campaigns: { kind: 'campaigns' },
  campaignDonationAccounts: { kind: 'campaigns' },
  customFields: { kind: 'customFields' },
  customFieldOptions: { kind: 'customFields' },
  contacts: { kind: 'contacts' },
  contactPhones: { kind: 'contacts' },
  contactEmails: { kind: 'contacts' },
  contactAddresses: { kind: 'contacts' },
  contactEducation: { kind: 'contacts' },
  contactEmployment: { kind: 'contacts' },
  contactNotes: { kind: 'contacts' },
  contactCustomValues: { kind: 'contacts' },
  donations: { kind: 'gifts' },
  limitFlags: { kind: 'gifts', note: 'a gift’s flags travel with the gift' },
  donationHistory: { kind: 'gifts', note: 'a gift’s history travels with the gift' },
  contactHistory: {
    own: 'who changed a donor, recorded where the change was made (the feed does not carry it yet)',
  },
  hubSentGifts: {
    kind: 'gifts',
    note: 'at a station, the gifts the hub says it sent to HQ (the gift’s sentToHq)',
  },
  eventStations: {
    kind: 'stations',
    note: 'the station’s copy of the hub’s stations (hub_stations is the hub’s own)',
  },

  apiKeys: { own: 'keys open one GiftDesk: a station’s key at the hub is not a key of the station' },
  users: { own: 'the people who sign in to this server (HQ’s staff); a station has none' },
  userPasswordTokens: { own: 'the one-time links that set a person’s password here' },
  signInFailures: { own: 'refused sign-ins to this server, for its throttle' },
  rateBuckets: { own: 'the rate limit of the servers on this database (PostgreSQL)' },
  appLinks: { own: 'one-time links that open the app on the servers of this database (PostgreSQL)' },
  accountCounterSlots: { own: 'running counts of the rows this database holds, moved by its own writes' },
  imports: {
    own: 'a CSV import is a job of the GiftDesk that ran it; its records travel as contacts and gifts',
  },
  importRejections: { own: 'the rows an import of this GiftDesk refused' },
  batches: { own: 'a volunteer’s entry batch at one desk; its gifts travel, the batch does not' },
  batchCounts: { own: 'a batch’s count of cash and checks at the desk that counted it' },
  batchCountLines: { own: 'the lines of a batch’s count' },
  changeLog: { own: 'each GiftDesk’s outbox and sequence; the hub’s feed is read off the hub’s' },
  syncRemotes: { own: 'where this GiftDesk pushes to (a station: its hub)' },
  syncLinks: { own: 'this GiftDesk’s id map to its remote’s ids' },
  syncItems: { own: 'this GiftDesk’s push state per record' },
  syncTrailSent: { own: 'the history entries this GiftDesk’s HQ confirmed' },
  syncLease: { own: 'the one-engine-per-database lease' },
  syncPullRuns: { own: 'this GiftDesk’s pulls from HQ' },
  syncDirectory: { own: 'HQ’s directory as this GiftDesk pulled it' },
  syncHqContacts: { own: 'HQ contacts this GiftDesk met while matching by email' },
  donationSyncReferences: { own: 'the create-once keys of gifts this GiftDesk received from a client' },
  contactSyncReferences: { own: 'the create-once keys of contacts, and a mirrored donor’s origin reference' },
  retiredContactReferences: {
    own: 'references of contacts their sender deleted while a create of them was in doubt',
  },
  donorTotalDeltas: { own: 'donor totals waiting to be folded in: derived from this database’s gifts' },
  hubSettings: { own: 'the hub’s hosting settings' },
  hubStations: { own: 'the hub’s stations and their keys (the stations kind carries their names)' },
  hubPairingCodes: { own: 'the hub’s pairing codes' },
  hubWrongCodes: { own: 'the wrong pairing codes the hub was sent in the last minute, by address' },
  hubNotices: { own: 'a station’s notices of its edits that lost at the hub' },
  hubHeldGifts: { own: 'gifts of the feed a station holds until what they name is here' },
  letterRuns: {
    own: 'a print run is made and marked sent where it was printed; the marks travel with the gifts',
  },
  letterRunGifts: { own: 'the gifts a print run covered' },
  letterRunDonors: { own: 'the donors of a print run, in the order it prints them' },
};

/** Tables an engine keeps that the schema does not describe (SQLite's names), each with its reason. */
export const ENGINE_TABLES: Record<string, string> = {
  giftdesk_migrations: 'the migrations run on this database',
  sqlite_sequence: 'SQLite’s own counters of its autoincrement keys',
  contacts_fts: 'the search index of this database’s contacts, kept by its own triggers',
  contacts_exact: 'the exact-match search index of this database’s contacts, kept by its own triggers',
  contacts_created_by_seq:
    'the latest creation time of this database’s contacts by block of seqs, kept by its own triggers',
};

/** A full-text table's shadow tables (`contacts_fts_data`, …) go with it. */
export function engineTableReason(name: string): string | null {
  if (ENGINE_TABLES[name] !== undefined) return ENGINE_TABLES[name]!;
  const m = /^(.+)_(config|data|docsize|idx|content)$/.exec(name);
  return m && ENGINE_TABLES[m[1]!] !== undefined ? `part of ${m[1]}` : null;
}
