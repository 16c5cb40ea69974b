/**
 * The one description of GiftDesk's tables, for every engine. Column names are camelCase
 * here and snake_case in the database (Kysely's CamelCasePlugin maps them).
 * Money is integer cents; timestamps are ISO 8601 UTC text (`…Z`); booleans are 0/1
 * integers so both engines store them alike.
 *
 * The tables are described by area in schema/ (accounts.ts, contacts.ts, donations.ts,
 * sync.ts, hub.ts, letters.ts); this file assembles them into `Database` and names the row types the domain uses.
 */
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type {
  AccountCounterSlotsTable,
  AccountsTable,
  ApiKeysTable,
  AppLinksTable,
  RateBucketsTable,
  ImportRejectionsTable,
  ImportsTable,
  SignInFailuresTable,
  UserPasswordTokensTable,
  UsersTable,
} from './schema/accounts.ts';
import type {
  ContactAddressesTable,
  ContactCustomValuesTable,
  ContactEducationTable,
  ContactEmailsTable,
  ContactEmploymentTable,
  ContactNotesTable,
  ContactPhonesTable,
  ContactsTable,
  CustomFieldOptionsTable,
  CustomFieldsTable,
} from './schema/contacts.ts';
import type {
  BatchCountLinesTable,
  BatchCountsTable,
  BatchesTable,
  CampaignDonationAccountsTable,
  CampaignsTable,
  CommitteesTable,
  DonationAccountsTable,
  DonationHistoryTable,
  ContactHistoryTable,
  DonationsTable,
  DonorTotalDeltasTable,
  ElectionsTable,
  LimitFlagsTable,
} from './schema/donations.ts';
import type {
  ChangeLogTable,
  ContactSyncReferencesTable,
  RetiredContactReferencesTable,
  DonationSyncReferencesTable,
  SyncDirectoryTable,
  SyncHqContactsTable,
  SyncItemsTable,
  SyncLeaseTable,
  SyncLinksTable,
  SyncTrailSentTable,
  SyncPullRunsTable,
  SyncRemotesTable,
} from './schema/sync.ts';
import type {
  EventStationsTable,
  HubSentGiftsTable,
  HubHeldGiftsTable,
  HubNoticesTable,
  HubPairingCodesTable,
  HubSettingsTable,
  HubStationsTable,
  HubWrongCodesTable,
} from './schema/hub.ts';
import type {
  LetterRunGiftsTable,
  LetterRunDonorsTable,
  LetterRunsTable,
  LetterSettingsTable,
  LetterTemplatesTable,
} from './schema/letters.ts';

export type * from './schema/accounts.ts';
export type * from './schema/contacts.ts';
export type * from './schema/donations.ts';
export type * from './schema/sync.ts';
export type * from './schema/hub.ts';
export type * from './schema/letters.ts';

export interface Database {
  accounts: AccountsTable;
  apiKeys: ApiKeysTable;
  users: UsersTable;
  userPasswordTokens: UserPasswordTokensTable;
  signInFailures: SignInFailuresTable;
  rateBuckets: RateBucketsTable;
  appLinks: AppLinksTable;
  contacts: ContactsTable;
  contactPhones: ContactPhonesTable;
  contactEmails: ContactEmailsTable;
  contactAddresses: ContactAddressesTable;
  contactEducation: ContactEducationTable;
  contactEmployment: ContactEmploymentTable;
  contactNotes: ContactNotesTable;
  customFields: CustomFieldsTable;
  customFieldOptions: CustomFieldOptionsTable;
  contactCustomValues: ContactCustomValuesTable;
  campaigns: CampaignsTable;
  campaignDonationAccounts: CampaignDonationAccountsTable;
  committees: CommitteesTable;
  donationAccounts: DonationAccountsTable;
  elections: ElectionsTable;
  donations: DonationsTable;
  batches: BatchesTable;
  batchCounts: BatchCountsTable;
  batchCountLines: BatchCountLinesTable;
  limitFlags: LimitFlagsTable;
  donationHistory: DonationHistoryTable;
  contactHistory: ContactHistoryTable;
  changeLog: ChangeLogTable;
  accountCounterSlots: AccountCounterSlotsTable;
  imports: ImportsTable;
  importRejections: ImportRejectionsTable;
  syncRemotes: SyncRemotesTable;
  syncLinks: SyncLinksTable;
  syncTrailSent: SyncTrailSentTable;
  syncItems: SyncItemsTable;
  syncLease: SyncLeaseTable;
  syncPullRuns: SyncPullRunsTable;
  syncDirectory: SyncDirectoryTable;
  syncHqContacts: SyncHqContactsTable;
  donationSyncReferences: DonationSyncReferencesTable;
  contactSyncReferences: ContactSyncReferencesTable;
  retiredContactReferences: RetiredContactReferencesTable;
  donorTotalDeltas: DonorTotalDeltasTable;
  hubSettings: HubSettingsTable;
  hubStations: HubStationsTable;
  hubPairingCodes: HubPairingCodesTable;
  hubWrongCodes: HubWrongCodesTable;
  hubNotices: HubNoticesTable;
  hubHeldGifts: HubHeldGiftsTable;
  eventStations: EventStationsTable;
  hubSentGifts: HubSentGiftsTable;
  letterSettings: LetterSettingsTable;
  letterTemplates: LetterTemplatesTable;
  letterRuns: LetterRunsTable;
  letterRunGifts: LetterRunGiftsTable;
  letterRunDonors: LetterRunDonorsTable;
}

export type ContactRow = Selectable<ContactsTable>;
export type NewContact = Insertable<ContactsTable>;
export type ContactPatch = Updateable<ContactsTable>;
export type DonationRow = Selectable<DonationsTable>;
export type NewDonation = Insertable<DonationsTable>;
export type DonationAccountRow = Selectable<DonationAccountsTable>;
export type CustomFieldRow = Selectable<CustomFieldsTable>;
export type CustomFieldOptionRow = Selectable<CustomFieldOptionsTable>;
export type Timestamp = ColumnType<string, string, string>;
