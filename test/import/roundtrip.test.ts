/**
 * Export → import round trips: an export imported back into its own account adds nothing
 * and changes nothing; contacts exported from one database and imported into another come
 * out of the second exactly as they left the first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer, tempDir } from '../helpers/server.ts';
import { csvFile, importFile, makeOrg } from './fixtures.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(): Promise<TestServer> {
  const s = await startTestServer();
  servers.push(s);
  for (const body of [
    { name: 'Wealth Score', type: 'number' },
    { name: 'Level', type: 'picklist', options: ['Gold', 'Silver'] },
    { name: 'Interests', type: 'text' },
  ]) {
    const r = await s.request('POST', '/api/v1/custom-fields', { accountId: s.accountId, ...body });
    if (r.status !== 201) throw new Error(r.text);
  }
  return s;
}

async function exported(s: TestServer, kind: 'contacts' | 'donations'): Promise<string> {
  const r = await s.request('GET', `/api/v1/exports/${kind}.csv?accountId=${s.accountId}`);
  expect(r.status).toBe(200);
  return r.text;
}

function saveAs(text: string, name: string): string {
  const file = path.join(tempDir('giftdesk-export-'), name);
  fs.writeFileSync(file, text);
  return file;
}

const CONTACTS = [
  [
    'externalId',
    'firstName',
    'lastName',
    'prefix',
    'primaryEmail',
    'primaryPhone',
    'organization',
    'birthDate',
    'gender',
    'tags',
    'phoneNumbers',
    'addresses',
    'education',
    'employment',
    'notes',
    'customFields.Wealth Score',
    'customFields.Level',
    'customFields.Interests',
  ],
  [
    'legacy-1',
    'Zoë',
    'Núñez',
    'Dr.',
    'zoe@example.org',
    '',
    'Acme, Inc.',
    '1980-02-29',
    'FEMALE',
    'donor;gala',
    '[{"phoneNumber":"555-0100","phoneType":"mobile","isPrimary":true},{"phoneNumber":"555-0101"}]',
    '[{"street1":"1 Main St","city":"Salem","state":"OR","isPrimary":true}]',
    '[{"institution":"State U","graduationYear":2002}]',
    '[{"employer":"Acme","title":"CFO","startDate":"2019-01-01","isCurrent":true}]',
    '[{"content":"Likes \\"quotes\\", commas, and\\nline breaks","noteType":"call"}]',
    '1e3',
    'Gold',
    ' leading and trailing spaces ',
  ],
  ['', 'José', 'García', '', '', '(555) 010-9999', '', '', '', '', '', '', '', '', 'plain note', '', '', ''],
];

describe('export → import', () => {
  it('contacts leave a second database exactly as they left the first', async () => {
    const a = await server();
    expect(await importFile(a, csvFile(CONTACTS), { kind: 'contacts' })).toMatchObject({
      imported: 2,
      rejectedCount: 0,
    });
    const fromA = await exported(a, 'contacts');

    const b = await server();
    expect(await importFile(b, saveAs(fromA, 'contacts.csv'), { kind: 'contacts' })).toMatchObject({
      imported: 2,
      rejectedCount: 0,
    });
    expect(await exported(b, 'contacts')).toBe(fromA);

    // and what the API shows of them is the same, ids and timestamps aside
    const view = async (s: TestServer) => {
      const list = await s.request(
        'GET',
        `/api/v1/contacts?accountId=${s.accountId}&sortBy=lastName&sortOrder=asc`,
      );
      const strip = (v: unknown): unknown =>
        Array.isArray(v)
          ? v.map(strip)
          : v && typeof v === 'object'
            ? Object.fromEntries(
                Object.entries(v)
                  .filter(([k]) => !['id', 'createdAt', 'updatedAt'].includes(k))
                  .map(([k, x]) => [k, strip(x)]),
              )
            : v;
      return Promise.all(
        list.body.data.map(async (c: { id: string }) =>
          strip((await s.request('GET', `/api/v1/contacts/${c.id}?accountId=${s.accountId}`)).body),
        ),
      );
    };
    expect(await view(b)).toEqual(await view(a));
  });

  it('an export imported back into its own account adds nothing and changes nothing', async () => {
    const s = await server();
    const org = await makeOrg(s);
    await importFile(s, csvFile(CONTACTS), { kind: 'contacts' });
    const jose = (
      await s.store.db
        .selectFrom('contacts')
        .select('id')
        .where('lastName', '=', 'García')
        .executeTakeFirstOrThrow()
    ).id;
    await importFile(
      s,
      csvFile([
        [
          'externalId',
          'contactExternalId',
          'donationAmount',
          'donationDate',
          'paymentMethod',
          'campaignId',
          'committeeId',
          'donationAccountId',
          'notes',
          'onBehalfOfContactExternalId',
          'isRecurring',
          'thankYouSent',
          'thankYouSentDate',
        ],
        [
          'gift-1',
          'legacy-1',
          '3000',
          '2025-01-01',
          'check',
          org.campaignId,
          '',
          org.federalId,
          ' ref-1 ',
          jose,
          'true',
          'true',
          '2025-01-05',
        ],
        [
          '',
          jose,
          '12.34',
          '2025-01-02T12:00:00+02:00',
          'venmo',
          '',
          org.committeeId,
          '',
          '',
          '',
          '',
          '',
          '',
        ],
        ['', 'legacy-1', '500', '2025-01-03', 'cash', org.campaignId, '', org.federalId, '', '', '', '', ''], // over the limit: flagged
      ]),
      { kind: 'donations' },
    );
    // a gift entered in the app (no external reference) goes out under its own id
    await s.request('POST', '/api/v1/donations', {
      accountId: s.accountId,
      contactId: jose,
      donationAmount: 7,
      donationDate: '2025-02-01',
      paymentMethod: 'cash',
      campaignId: org.campaignId,
    });
    const before = {
      contacts: await exported(s, 'contacts'),
      donations: await exported(s, 'donations'),
      flags: (await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`)).body,
      account: (await s.request('GET', `/api/v1/account?accountId=${s.accountId}`)).body,
    };
    expect(before.flags.flagged).toHaveLength(1);
    expect(before.account).toMatchObject({ contacts: 2, donations: 4 });

    expect(await importFile(s, saveAs(before.contacts, 'contacts.csv'), { kind: 'contacts' })).toMatchObject({
      imported: 0,
      skipped: 2,
      rejectedCount: 0,
    });
    expect(
      await importFile(s, saveAs(before.donations, 'donations.csv'), { kind: 'donations' }),
    ).toMatchObject({ imported: 0, skipped: 4, rejectedCount: 0 });

    const after = {
      contacts: await exported(s, 'contacts'),
      donations: await exported(s, 'donations'),
      flags: (await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`)).body,
      account: (await s.request('GET', `/api/v1/account?accountId=${s.accountId}`)).body,
    };
    expect(after).toEqual(before);
  });
});
