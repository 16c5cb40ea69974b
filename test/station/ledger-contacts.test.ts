/**
 * A donor of the hub's feed at a station, on a real SQLite file: the whole record — every
 * field, the tags, each collection of sub-records under the hub's ids — reads here as the hub's
 * read shape says; a collection or the tags changed here and not pushed yet are kept while the
 * rest of the hub's change is taken; a page that changes nothing writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import type { Contact } from '#shared/schemas/contacts.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { getContact, updateContact } from '../../electron/domain/contacts/index.ts';
import { applyFeedPage, type FeedPage } from '../../electron/sync/station/apply-feed.ts';
import { tempDir } from '../helpers/server.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

let store: Store;
let ctx: DomainContext;
const accountId = newId('account');

const HUB_ROBERT: Contact = {
  id: 'cnt_HUBROBERT',
  contactType: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: 'Robert',
  lastName: 'Brown',
  prefix: 'Dr.',
  middleName: 'J.',
  suffix: null,
  salutation: 'Bob',
  formalSalutation: 'Dr. Brown',
  primaryEmail: null,
  primaryPhone: null,
  organization: 'Brown & Sons',
  title: 'Owner',
  employer: 'Brown & Sons',
  occupation: 'Baker',
  industry: null,
  spouse: 'Łucja Brown',
  birthDate: null,
  gender: null,
  politicalParty: null,
  capacity: null,
  quickNotes: 'Likes the gala',
  source: 'gala',
  preferredContactMethod: 'PHONE',
  tags: ['volunteer', 'gd:cnt_STATIONB7'],
  phoneNumbers: [{ id: 'sub_HUBP1', phoneNumber: '555-0100', phoneType: 'mobile', isPrimary: true }],
  emailAddresses: [{ id: 'sub_HUBE1', emailAddress: 'bob@example.org', emailType: 'home', isPrimary: true }],
  addresses: [
    {
      id: 'sub_HUBA1',
      addressType: 'home',
      street1: '12 Elm St',
      street2: null,
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
      isPrimary: true,
    },
  ],
  education: [
    { id: 'sub_HUBED', institution: 'State College', degree: 'BA', fieldOfStudy: null, graduationYear: 1990 },
  ],
  employment: [
    {
      id: 'sub_HUBEM',
      employer: 'Brown & Sons',
      title: 'Owner',
      occupation: 'Baker',
      startDate: '2001-01-01',
      endDate: null,
      isCurrent: true,
    },
  ],
  notes: [
    {
      id: 'sub_HUBN1',
      content: 'Met at the 2025 gala',
      noteType: 'call',
      createdAt: '2026-11-01T10:00:00.000Z',
    },
  ],
  customFields: {},
  email: 'bob@example.org',
  phone: '555-0100',
  address: null,
  totalDonations: 0,
  totalDonated: 0,
  lastDonationDate: null,
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-20T09:00:00.000Z',
};
HUB_ROBERT.address = HUB_ROBERT.addresses[0]!;

let seq = 0;
function page(contacts: Contact[]): FeedPage {
  seq += 1;
  return {
    contacts,
    deletedContacts: [],
    donations: [],
    reference: null,
    snapshots: {},
    cursor: String(seq),
    more: false,
  };
}

async function apply(p: FeedPage) {
  return applyFeedPage(store, accountId, p, new Date().toISOString(), new Date().toISOString());
}

const changeCount = async () =>
  Number(
    (
      await store.db
        .selectFrom('changeLog')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  store = await openStore({ dataDir: tempDir('giftdesk-station-') });
  ctx = createContext(store);
  const at = new Date().toISOString();
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at);
  });
});
afterAll(async () => {
  await store?.close();
});

describe('a donor of the feed at a station', () => {
  it('reads here as the hub reads it: every field, the tags and each collection under the hub’s ids', async () => {
    await apply(page([HUB_ROBERT]));
    expect(await getContact(ctx, accountId, HUB_ROBERT.id)).toEqual(HUB_ROBERT);
    // The same page again writes nothing.
    const before = await changeCount();
    await apply(page([HUB_ROBERT]));
    expect(await changeCount()).toBe(before);
  });

  it('keeps the tags changed here and not pushed yet, and takes the hub’s new address and phone', async () => {
    await updateContact(ctx, accountId, HUB_ROBERT.id, { tags: ['volunteer', 'table captain'] });
    const moved: Contact = {
      ...HUB_ROBERT,
      tags: ['volunteer', 'host', 'gd:cnt_STATIONB7'],
      phoneNumbers: [
        ...HUB_ROBERT.phoneNumbers,
        { id: 'sub_HUBP2', phoneNumber: '555-0199', phoneType: 'work', isPrimary: false },
      ],
      addresses: [{ ...HUB_ROBERT.addresses[0]!, id: 'sub_HUBA2', street1: '40 Oak Ave' }],
      updatedAt: '2026-11-21T09:00:00.000Z',
    };
    moved.address = moved.addresses[0]!;
    await apply(page([moved]));
    const here = await getContact(ctx, accountId, HUB_ROBERT.id);
    expect(here.tags).toEqual(['volunteer', 'table captain']);
    expect(here.phoneNumbers).toEqual(moved.phoneNumbers);
    expect(here.addresses).toEqual(moved.addresses);
    expect(here.address?.street1).toBe('40 Oak Ave');
  });
});
