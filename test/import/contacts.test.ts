/**
 * Importing contacts: profile columns, tags, sub-records (plain or as JSON), one address in
 * plain columns, and custom fields as `customFields.<Field Name>` columns, under the same
 * rules as POST /contacts (types, pick-list options, retired options, archived fields).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.ts';
import { contactIdOf, csvFile, importFile } from './fixtures.ts';

let s: TestServer;

async function field(body: Record<string, unknown>): Promise<string> {
  const r = await s.request('POST', '/api/v1/custom-fields', { accountId: s.accountId, ...body });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.id as string;
}

beforeEach(async () => {
  s = await startTestServer();
  await field({ name: 'Volunteer Interests', type: 'text' });
  await field({ name: 'Wealth Score', type: 'number' });
  await field({ name: 'Last Contacted', type: 'date' });
  const level = await field({ name: 'Level', type: 'picklist', options: ['Gold', 'Silver', 'Old'] });
  await s.request('POST', `/api/v1/custom-fields/${level}/actions`, {
    accountId: s.accountId,
    action: 'retireOption',
    option: 'Old',
  });
  const legacy = await field({ name: 'Legacy ID', type: 'text' });
  await s.request('POST', `/api/v1/custom-fields/${legacy}/actions`, {
    accountId: s.accountId,
    action: 'archive',
  });
});
afterEach(async () => {
  await s.close();
});

describe('import contacts', () => {
  it('reads profile, tags, sub-records, an address and custom fields, as the API would store them', async () => {
    const file = csvFile([
      // header names forgive case and spacing; custom field names are case-insensitive
      [
        'External ID',
        'First Name',
        'lastName',
        'contactType',
        'primaryEmail',
        'tags',
        'phoneNumbers',
        'emailAddresses',
        'address.street1',
        'address.city',
        'address.postalCode',
        'customFields.volunteer interests',
        'customFields.Wealth Score',
        'customFields.Last Contacted',
        'customFields.Level',
        'notes',
      ],
      [
        'p1',
        'Zoë',
        'Núñez',
        'individual',
        '',
        'volunteer; Major Donor;volunteer',
        '(555) 010-2000',
        '[{"emailAddress":"zoe@example.org","emailType":"work","isPrimary":true}]',
        '12 Elm St',
        'Salem',
        '97301',
        'phone banking',
        '87.5',
        '2025-10-01',
        'gold',
        'Met at the gala, "very keen"',
      ],
      [
        'p2',
        'Acme',
        'Hardware',
        'Organization',
        'info@acme.example',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ]);
    const r = await importFile(s, file, { kind: 'contacts' });
    expect(r).toMatchObject({ imported: 2, rejectedCount: 0, skipped: 0 });
    const zoe = await s.request(
      'GET',
      `/api/v1/contacts/${await contactIdOf(s, 'p1')}?accountId=${s.accountId}`,
    );
    expect(zoe.body).toMatchObject({
      firstName: 'Zoë',
      lastName: 'Núñez',
      contactType: 'INDIVIDUAL',
      status: 'ACTIVE',
      email: 'zoe@example.org',
      phone: '(555) 010-2000',
      tags: ['volunteer', 'Major Donor'],
      address: { street1: '12 Elm St', city: 'Salem', postalCode: '97301', isPrimary: true },
      customFields: {
        'Volunteer Interests': 'phone banking',
        'Wealth Score': 87.5,
        'Last Contacted': '2025-10-01',
        Level: 'Gold',
      },
      notes: [{ content: 'Met at the gala, "very keen"' }],
      totalDonations: 0,
    });
    expect(zoe.body.emailAddresses).toEqual([
      { id: expect.any(String), emailAddress: 'zoe@example.org', emailType: 'work', isPrimary: true },
    ]);
    const acme = await s.request(
      'GET',
      `/api/v1/contacts/${await contactIdOf(s, 'p2')}?accountId=${s.accountId}`,
    );
    expect(acme.body).toMatchObject({
      contactType: 'ORGANIZATION',
      email: 'info@acme.example',
      customFields: {},
    });
    // search finds an imported contact, accents folded
    const found = await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=zoe%20nun`);
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([zoe.body.id]);
    const account = await s.request('GET', `/api/v1/account?accountId=${s.accountId}`);
    expect(account.body.contacts).toBe(2);
  });

  it('rejects rows the API would refuse, naming the field and why, and saves nothing of them', async () => {
    const file = csvFile([
      [
        'externalId',
        'firstName',
        'lastName',
        'primaryEmail',
        'customFields.Wealth Score',
        'customFields.Last Contacted',
        'customFields.Level',
        'customFields.Legacy ID',
        'gender',
        'phoneNumbers',
      ],
      ['ok', 'Ana', 'Ok', '', '', '', '', '', 'female', ''], // 2
      ['r3', 'Ben', 'Number', '', 'lots', '', '', '', '', ''], // 3
      ['r4', 'Cy', 'Date', '', '', '2025-13-01', '', '', '', ''], // 4
      ['r5', 'Di', 'Retired', '', '', '', 'Old', '', '', ''], // 5
      ['r6', 'Ed', 'Unknown', '', '', '', 'Bronze', '', '', ''], // 6
      ['r7', 'Flo', 'Archived', '', '', '', '', 'L-77', '', ''], // 7
      ['r8', 'Gus', 'Email', 'not-an-email', '', '', '', '', '', ''], // 8
      ['r9', 'Hal', '', '', '', '', '', '', '', ''], // 9
      ['r10', 'Ivy', 'Two', '', 'lots', '2025-02-30', '', '', '', ''], // 10: both custom values wrong
      ['r11', 'Jo', 'Gender', '', '', '', '', '', 'sometimes', ''], // 11
      [
        'r12',
        'Kim',
        'Phones',
        '',
        '',
        '',
        '',
        '',
        '',
        '[{"phoneNumber":"1","isPrimary":true},{"phoneNumber":"2","isPrimary":true}]',
      ], // 12
    ]);
    const r = await importFile(s, file, { kind: 'contacts' });
    expect(r.imported).toBe(1);
    const reasons = Object.fromEntries(r.rejected.map((x) => [x.row, x.reason]));
    expect(Object.keys(reasons).map(Number)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(reasons[3]).toBe('customFields.Wealth Score must be a number');
    expect(reasons[4]).toBe('customFields.Last Contacted must be a date written YYYY-MM-DD');
    expect(reasons[5]).toBe('customFields.Level option "Old" is retired');
    expect(reasons[6]).toBe('customFields.Level must be one of: Gold, Silver');
    expect(reasons[7]).toBe('customFields.Legacy ID is archived and cannot be changed');
    expect(reasons[8]).toMatch(/^primaryEmail must be a valid email address/);
    expect(reasons[9]).toBe('lastName is required');
    expect(reasons[10]).toBe(
      'customFields.Wealth Score must be a number; customFields.Last Contacted must be a date written YYYY-MM-DD',
    );
    expect(reasons[11]).toMatch(/^gender must be one of: MALE, FEMALE, OTHER, PREFER_NOT_TO_SAY/);
    expect(reasons[12]).toMatch(/phoneNumbers\[1\]\.isPrimary: only one phone number can be primary/);
    const counts = {
      contacts: (await s.store.db.selectFrom('contacts').select('id').execute()).length,
      values: (await s.store.db.selectFrom('contactCustomValues').select('contactId').execute()).length,
      phones: (await s.store.db.selectFrom('contactPhones').select('id').execute()).length,
    };
    expect(counts).toEqual({ contacts: 1, values: 0, phones: 0 });
  });

  it('refuses a file whose custom field column names no field of the account', async () => {
    const file = csvFile([
      ['firstName', 'lastName', 'customFields.Shoe Size'],
      ['Ana', 'Ok', '39'],
    ]);
    await expect(importFile(s, file, { kind: 'contacts' })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_columns',
      details: [{ field: 'customFields.Shoe Size', issue: 'is not a custom field of this account' }],
    });
    expect(await s.store.db.selectFrom('contacts').select('id').execute()).toEqual([]);
  });

  it('skips a contact whose externalId the account already has, in this file or from before', async () => {
    const file = csvFile([
      ['externalId', 'firstName', 'lastName'],
      ['k1', 'Ana', 'One'],
      ['k1', 'Ana', 'Again'],
      ['', 'No', 'Reference'],
    ]);
    expect(await importFile(s, file, { kind: 'contacts' })).toMatchObject({
      imported: 2,
      skipped: 1,
      rejectedCount: 0,
    });
    expect(await importFile(s, file, { kind: 'contacts' })).toMatchObject({
      imported: 1,
      skipped: 2,
      rejectedCount: 0,
    });
    const names = (
      await s.store.db.selectFrom('contacts').select(['lastName']).orderBy('lastName').execute()
    ).map((c) => c.lastName);
    expect(names).toEqual(['One', 'Reference', 'Reference']);
  });

  it('rejects a row whose cells are not UTF-8 text (a file saved in a legacy encoding)', async () => {
    const fs = await import('node:fs');
    const file = csvFile([['firstName', 'lastName']]);
    fs.appendFileSync(
      file,
      Buffer.concat([
        Buffer.from('Jos'),
        Buffer.from([0xe9]),
        Buffer.from(',Garc'),
        Buffer.from([0xed]),
        Buffer.from('a\r\nAna,Ok\r\n'),
      ]),
    );
    const r = await importFile(s, file, { kind: 'contacts' });
    expect(r.imported).toBe(1);
    expect(r.rejected).toEqual([
      {
        row: 2,
        reason: expect.stringMatching(
          /^firstName holds bytes that are not UTF-8 text.*; lastName holds bytes/,
        ),
      },
    ]);
  });

  it('rejects a row with a NUL character in a cell, storing nothing of it', async () => {
    const file = csvFile([
      ['firstName', 'lastName'],
      ['Robert', 'Brown\u0000'],
      ['Robert', 'Brown'],
    ]);
    const r = await importFile(s, file, { kind: 'contacts' });
    expect(r.imported).toBe(1);
    expect(r.rejected).toEqual([
      { row: 2, reason: expect.stringMatching(/^lastName holds a NUL character/) },
    ]);
    const stored = await s.store.db
      .selectFrom('contacts')
      .select('lastName')
      .where('lastName', 'like', 'Brown%')
      .execute();
    expect(stored.every((c) => !c.lastName.includes('\u0000'))).toBe(true);
  });
});
