/**
 * The event's ledger: what a station mirrors of its hub, declared once as a list of replicated
 * kinds. The hub's feed (feed.ts) reads each kind of this list for a page, and the station
 * applies each kind of the same list, in the same order (sync/station/ledger-apply.ts, whose
 * record of appliers is keyed by these names, so a kind without an apply does not compile).
 * Every table of the database is either covered by one of these kinds or named as a GiftDesk's
 * own, with the reason (ledger-tables.ts; test/hub/ledger-kinds.test.ts holds the list to the
 * migrated database).
 *
 * Two modes:
 * - snapshot: a small list sent whole whenever its fingerprint changed; the cursor carries the
 *   fingerprint of each snapshot kind the station has (docs/design.md, "What a station mirrors").
 * - logged: the records the change log names after the cursor, read by sequence (never by wall
 *   clocks across laptops), a page at a time.
 *
 * The order is the order a station applies a page in: what a record names before the record
 * (donation accounts before the campaigns that offer them, custom fields before the values,
 * donors before their gifts).
 *
 * GIFTDESK_LEDGER_SKIP=kind1,kind2 leaves those kinds out of the hub's feed: a test switch only
 * (the convergence test shows that a station then disagrees with the hub), never for an event.
 */
import type { HubChanges, HubSnapshots } from '#shared/schemas/hub.ts';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/store.ts';
import {
  readCampaigns,
  readCommittees,
  readCustomFields,
  readDeletedContacts,
  readDonationAccounts,
  readElections,
  readLetters,
  readPageContacts,
  readStations,
} from './ledger-reads.ts';

export type TableName = keyof Database;
export type SnapshotName = keyof HubSnapshots;
export type LoggedName = 'contacts' | 'deletedContacts' | 'gifts';
export type LedgerKindName = SnapshotName | LoggedName;

/** What a logged kind adds to a page. */
export type LoggedPart = Partial<Pick<HubChanges, 'contacts' | 'deletedContacts' | 'donations'>>;

export interface SnapshotKind<K extends SnapshotName = SnapshotName> {
  name: K;
  mode: 'snapshot';
  /** The tables the kind covers (at either end). */
  tables: readonly TableName[];
  /** What it is, in a line. */
  about: string;
  /** The whole list, as the feed sends it. */
  read(db: Db, accountId: string): Promise<NonNullable<HubSnapshots[K]>>;
}

export interface LoggedKind {
  name: LoggedName;
  mode: 'logged';
  tables: readonly TableName[];
  about: string;
  /** The change log's entity type whose rows name this kind's records. */
  entityType: 'contact' | 'donation';
  /** The page's part for the ids the change log names (in the order of their last change). */
  read(db: Db, accountId: string, ids: string[]): Promise<LoggedPart>;
}

export type AnySnapshotKind = { [K in SnapshotName]: SnapshotKind<K> }[SnapshotName];
export type LedgerKind = AnySnapshotKind | LoggedKind;

/**
 * The gifts' read, given by feed.ts (it lives there beside the feed, where the gifts' shape is
 * kept): a kind names it and the feed passes it in.
 */
export type GiftsRead = (db: Db, accountId: string, ids: string[]) => Promise<HubChanges['donations']>;

/** The kinds in the order they are applied (see the top). */
export function ledgerKinds(gifts: GiftsRead): readonly LedgerKind[] {
  return [
    {
      name: 'elections',
      mode: 'snapshot',
      tables: ['elections', 'accounts'],
      about:
        "the election calendar and the account's default election (D5: which election a gift counts toward)",
      read: readElections,
    },
    {
      name: 'letters',
      mode: 'snapshot',
      tables: ['letterSettings', 'letterTemplates'],
      about:
        "what the letters say of the organisation (its kind, name, address, signer) and the account's own templates",
      read: readLetters,
    },
    {
      name: 'donationAccounts',
      mode: 'snapshot',
      tables: ['donationAccounts'],
      about: 'donation accounts with their contribution limits',
      read: readDonationAccounts,
    },
    {
      name: 'committees',
      mode: 'snapshot',
      tables: ['committees'],
      about: 'committees',
      read: readCommittees,
    },
    {
      name: 'campaigns',
      mode: 'snapshot',
      tables: ['campaigns', 'campaignDonationAccounts'],
      about: 'campaigns with the donation accounts each offers',
      read: readCampaigns,
    },
    {
      name: 'customFields',
      mode: 'snapshot',
      tables: ['customFields', 'customFieldOptions'],
      about: 'custom field definitions with their options',
      read: readCustomFields,
    },
    {
      name: 'contacts',
      mode: 'logged',
      entityType: 'contact',
      tables: [
        'contacts',
        'contactPhones',
        'contactEmails',
        'contactAddresses',
        'contactEducation',
        'contactEmployment',
        'contactNotes',
        'contactCustomValues',
      ],
      about: 'donors with every field, tag, sub-record and custom value',
      read: async (db, accountId, ids) => ({ contacts: await readPageContacts(db, accountId, ids) }),
    },
    {
      name: 'deletedContacts',
      mode: 'logged',
      entityType: 'contact',
      tables: [],
      about: 'donors deleted at the hub (their gifts go with them)',
      read: async (db, accountId, ids) => ({
        deletedContacts: await readDeletedContacts(db, accountId, ids),
      }),
    },
    {
      name: 'gifts',
      mode: 'logged',
      entityType: 'donation',
      tables: ['donations', 'limitFlags', 'donationHistory', 'hubSentGifts'],
      about: 'gifts with every later change, their flags and their history',
      read: async (db, accountId, ids) => ({ donations: await gifts(db, accountId, ids) }),
    },
    {
      name: 'stations',
      mode: 'snapshot',
      tables: ['eventStations'],
      about: "the event's stations by id and name (a station's board names the others)",
      read: readStations,
    },
  ];
}

/** Every kind's name, in the list's order (the station's apply and the tests go by it). */
export const LEDGER_KIND_NAMES: readonly LedgerKindName[] = ledgerKinds(async () => []).map((k) => k.name);

/** The kinds GIFTDESK_LEDGER_SKIP leaves out of the feed (a test switch; see the top). */
export function skippedKinds(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> {
  const raw = env.GIFTDESK_LEDGER_SKIP ?? '';
  return new Set(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}
