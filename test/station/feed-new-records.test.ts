/**
 * A station catching up with its hub writes a page's new donors and gifts together; what it
 * ends with must be what the one-by-one path leaves. A hub on a real SQLite file holds a messy
 * event (three Robert Browns, one without an email; "Łukasz Żółć"; twins at one address; a donor
 * with every collection, tags, another station's reference and a custom value; two identical
 * $19.99 cash gifts of one donor; gifts over the yearly limit, flagged; a voided gift). Its feed
 * is applied at two stations: one in pages of 2000 (the new records written together), one a
 * record per page (each the one-by-one way). Both hold the same donors, sub-records, custom
 * values, gifts, flags, history, links, references, counts and search entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createContact, createCustomField } from '../../electron/domain/contacts/index.ts';
import { createDonation, voidDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign, createDonationAccount } from '../../electron/domain/reference/index.ts';
import { readChanges } from '../../electron/hub/index.ts';
import { applyFeedPage } from '../../electron/sync/station/apply-feed.ts';
import { tempDir } from '../helpers/server.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

let hub: Store;
let hubCtx: DomainContext;
let accountId: string;
const stations: Store[] = [];

async function seedHub() {
  accountId = (await createAccount(hubCtx, 'Spring Gala')).id;
  const da = await createDonationAccount(hubCtx, { accountId, name: 'General', perYear: 100 });
  const campaign = await createCampaign(hubCtx, {
    accountId,
    name: 'Gala 2026',
    donationAccountIds: [da.id],
  });
  await createCustomField(hubCtx, { accountId, name: 'Table', type: 'text' });
  const donor = (firstName: string, lastName: string, more: Record<string, unknown> = {}) =>
    createContact(hubCtx, { accountId, firstName, lastName, ...more });
  const robert1 = await donor('Robert', 'Brown', { primaryEmail: 'rb1@example.org' });
  const robert2 = await donor('Robert', 'Brown', {
    primaryEmail: 'rb2@example.org',
    primaryPhone: '555-0102',
  });
  const robert3 = await donor('Robert', 'Brown');
  const lukasz = await donor('Łukasz', 'Żółć', { customFields: { Table: '7' } });
  const home = {
    street1: '1 Elm St',
    city: 'Springfield',
    postalCode: '62701',
    country: 'US',
    isPrimary: true,
  };
  const twinA = await donor('Ana', 'Lima', { addresses: [home] });
  const twinB = await donor('Ana', 'Lima', { addresses: [home] });
  const full = await donor('Mai', 'Nguyễn', {
    prefix: 'Dr.',
    organization: 'Nguyễn & Co',
    tags: ['volunteer', 'gd:cnt_OTHERSTATION1'],
    customFields: { Table: '12' },
    phoneNumbers: [
      { phoneNumber: '555-0200', phoneType: 'mobile', isPrimary: true },
      { phoneNumber: '555-0201', phoneType: 'work' },
    ],
    emailAddresses: [{ emailAddress: 'mai@example.org', emailType: 'home', isPrimary: true }],
    addresses: [home],
    education: [{ institution: 'State College', degree: 'BA', graduationYear: 1999 }],
    employment: [{ employer: 'Nguyễn & Co', title: 'Owner', isCurrent: true }],
    notes: [{ content: 'Met at the 2025 gala', noteType: 'call' }],
  });
  const gift = (contactId: string, donationAmount: number, more: Record<string, unknown> = {}) =>
    createDonation(hubCtx, {
      accountId,
      contactId,
      donationAmount,
      donationDate: '2026-05-01',
      paymentMethod: 'cash',
      campaignId: campaign.id,
      donationAccountId: da.id,
      ...more,
    });
  await gift(robert1.id, 19.99);
  await gift(robert1.id, 19.99); // the same gift twice, as typed
  await gift(robert2.id, 60);
  await gift(robert2.id, 60); // over the yearly limit: flagged
  await gift(lukasz.id, 25, { paymentMethod: 'check' });
  const wrong = await gift(robert3.id, 500);
  await voidDonation(hubCtx, accountId, wrong.id, 'typed twice');
  for (const d of [twinA, twinB, full]) await gift(d.id, 10, { donationDate: '2026-05-02' });
}

/** The hub's whole feed applied at a new station in pages of `limit`. */
async function joinIn(limit: number): Promise<Store> {
  const store = await openStore({ dataDir: tempDir('giftdesk-station-') });
  stations.push(store);
  const at = new Date().toISOString();
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at);
  });
  let after: string | undefined;
  for (;;) {
    const page = await readChanges(hubCtx, accountId, after, limit);
    const counts = await applyFeedPage(store, accountId, page, at, at);
    expect(counts.skipped).toBe(0);
    expect(counts.held).toBe(0);
    after = page.cursor;
    if (!page.more) return store;
  }
}

const TABLES: Record<string, string> = {
  contacts: 'select * from contacts order by id',
  phones: 'select * from contact_phones order by id',
  emails: 'select * from contact_emails order by id',
  addresses: 'select * from contact_addresses order by id',
  education: 'select * from contact_education order by id',
  employment: 'select * from contact_employment order by id',
  notes: 'select * from contact_notes order by id',
  customValues: 'select * from contact_custom_values order by contact_id, field_id',
  donations: 'select * from donations order by id',
  flags: 'select * from limit_flags order by id',
  history: 'select * from donation_history order by id',
  sentToHq: 'select * from hub_sent_gifts order by donation_id',
  giftReferences: 'select * from donation_sync_references order by reference',
  contactReferences: 'select * from contact_sync_references order by reference',
  links: 'select entity_type, local_id, remote_id, source from sync_links order by entity_type, local_id',
  counts:
    'select account_id, sum(contacts) as contacts, sum(donations) as donations from account_counter_slots group by account_id',
  search: 'select rowid, name, email, organization, account from contacts_fts order by rowid',
  creates:
    "select entity_type, entity_id, push from change_log where op = 'create' order by entity_type, entity_id",
};

async function dump(store: Store): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, text] of Object.entries(TABLES)) out[name] = (await sql.raw(text).execute(store.db)).rows;
  return out;
}

beforeAll(async () => {
  hub = await openStore({ dataDir: tempDir('giftdesk-hub-') });
  hubCtx = createContext(hub);
  await seedHub();
});
afterAll(async () => {
  for (const s of stations) await s.close();
  await hub?.close();
});

describe('a station catching up with its hub', () => {
  it('ends with the same records whether the new ones are written together or one by one', async () => {
    const together = await dump(await joinIn(2000));
    const oneByOne = await dump(await joinIn(1));
    expect(together.contacts).toHaveLength(7);
    expect(together.donations).toHaveLength(9);
    expect(together.flags?.length).toBeGreaterThan(0);
    expect(together.search).toHaveLength(7);
    for (const name of Object.keys(TABLES))
      expect({ [name]: together[name] }).toEqual({ [name]: oneByOne[name] });
  });
});
