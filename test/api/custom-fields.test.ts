/**
 * Custom field values on contacts (spec "Custom fields", C4): definitions made through the
 * extension routes; values written case-insensitively, type-checked, all or nothing; ""
 * or null clears; archived fields neither returned nor writable; lists omit them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customFieldAction,
  expectRejected,
  expectStatus,
  getContact,
  makeContact,
  makeCustomField,
  type CustomFieldDef,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let tier: CustomFieldDef;
let score: CustomFieldDef;
let since: CustomFieldDef;
let level: CustomFieldDef;

beforeAll(async () => {
  s = await startTestServer();
  tier = await makeCustomField(s, 'Donor Tier', 'text');
  score = await makeCustomField(s, 'Score', 'number');
  since = await makeCustomField(s, 'Member Since', 'date');
  level = await makeCustomField(s, 'Level', 'picklist', ['Bronze', 'Silver', 'Gold']);
});
afterAll(async () => {
  await s?.close();
});

const put = (id: string, body: Record<string, unknown>) => () =>
  s.request('PUT', `/api/v1/contacts/${id}`, body);
const create = (body: Record<string, unknown>) => () =>
  s.request('POST', '/api/v1/contacts', {
    accountId: s.accountId,
    firstName: 'Custom',
    lastName: 'Fields',
    ...body,
  });

describe('definitions (extension routes)', () => {
  it('are created with cf_ ids, typed, with their options', () => {
    expect(tier).toMatchObject({ name: 'Donor Tier', type: 'text', archived: false, options: [] });
    expect(tier.id).toMatch(/^cf_/);
    expect([score.type, since.type, level.type]).toEqual(['number', 'date', 'picklist']);
    expect(level.options.map((o) => o.name)).toEqual(['Bronze', 'Silver', 'Gold']);
    expect(level.options.every((o) => o.id.startsWith('cfo_') && !o.retired)).toBe(true);
  });

  it('refuse a second field whose name differs only in case (409), and a bad type (400)', async () => {
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/custom-fields', {
          accountId: s.accountId,
          name: 'donor tier',
          type: 'text',
        }),
      409,
      { code: 'custom_field_exists' },
    );
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/custom-fields', {
          accountId: s.accountId,
          name: 'Other',
          type: 'boolean',
        }),
      400,
      { field: 'type' },
    );
  });
});

describe('writing values', () => {
  it('returns each type as the spec says: text a string, number a number, date YYYY-MM-DD, pick list the option name', async () => {
    const c = expectStatus(
      await create({
        customFields: { 'Donor Tier': 'Major', Score: 87.5, 'Member Since': '2019-04-01', Level: 'Gold' },
      })(),
      201,
    );
    expect(c.customFields).toEqual({
      'Donor Tier': 'Major',
      Score: 87.5,
      'Member Since': '2019-04-01',
      Level: 'Gold',
    });
    expect((await getContact(s, c.id)).customFields).toEqual(c.customFields);
  });

  it('matches field names and pick-list options case-insensitively, answering with the defined names', async () => {
    const c = await makeContact(s, {
      customFields: { 'DONOR TIER': 'Mid', score: 3, 'member since': '2020-01-31', LEVEL: 'silver' },
    });
    expect(c.customFields).toEqual({
      'Donor Tier': 'Mid',
      Score: 3,
      'Member Since': '2020-01-31',
      Level: 'Silver',
    });
  });

  it('omits a field with no value', async () => {
    const c = await makeContact(s, { customFields: { Score: 1 } });
    expect(c.customFields).toEqual({ Score: 1 });
  });

  it('C4: changes only the fields sent; "" and null clear one', async () => {
    const c = await makeContact(s, {
      customFields: { 'Donor Tier': 'Major', Score: 10, Level: 'Bronze', 'Member Since': '2018-05-05' },
    });
    const r1 = expectStatus(await put(c.id, { customFields: { score: 11 } })(), 200);
    expect(r1.customFields).toEqual({
      'Donor Tier': 'Major',
      Score: 11,
      Level: 'Bronze',
      'Member Since': '2018-05-05',
    });
    const r2 = expectStatus(await put(c.id, { customFields: { 'Donor Tier': '', Level: null } })(), 200);
    expect(r2.customFields).toEqual({ Score: 11, 'Member Since': '2018-05-05' });
    const r3 = expectStatus(await put(c.id, { title: 'CEO' })(), 200);
    expect(r3.customFields).toEqual({ Score: 11, 'Member Since': '2018-05-05' });
    expect((await getContact(s, c.id)).customFields).toEqual({ Score: 11, 'Member Since': '2018-05-05' });
  });
});

describe('refused values: 400 and nothing on the contact saved', () => {
  it.each([
    ['an unknown field', { Nickname: 'Bob' }, 'customFields.Nickname'],
    ['text sent as a number', { 'Donor Tier': 5 }, 'customFields.Donor Tier'],
    ['a number sent as text', { Score: '12' }, 'customFields.Score'],
    ['an impossible date', { 'Member Since': '2021-02-30' }, 'customFields.Member Since'],
    ['a date in another format', { 'Member Since': '04/01/2019' }, 'customFields.Member Since'],
    ['an option the pick list lacks', { Level: 'Platinum' }, 'customFields.Level'],
    ['a pick-list value that is not text', { Level: 2 }, 'customFields.Level'],
    ['the same field twice in different case', { score: 1, SCORE: 2 }, 'customFields.SCORE'],
  ])('%s', async (_label, customFields, field) => {
    const c = await makeContact(s, { customFields: { 'Donor Tier': 'Major', Score: 10 } });
    // valid changes in the same request are not saved either (all or nothing)
    const res = await expectRejected(
      s,
      put(c.id, {
        firstName: 'Changed',
        tags: ['x'],
        customFields: { 'Donor Tier': 'Minor', ...customFields },
      }),
      400,
      { field, contacts: [c.id] },
    );
    expect(res.body.message).toContain(field);
    // and a create with the same values makes no contact
    await expectRejected(s, create({ customFields }), 400, { field });
  });

  it('a retired option is refused, though existing values keep showing it', async () => {
    const f = await makeCustomField(s, 'Region', 'picklist', ['North', 'South']);
    const c = await makeContact(s, { customFields: { Region: 'North' } });
    const after = await customFieldAction(s, f.id, { action: 'retireOption', option: 'North' });
    expect(after.options).toContainEqual(expect.objectContaining({ name: 'North', retired: true }));
    expect((await getContact(s, c.id)).customFields).toEqual({ Region: 'North' });
    const other = await makeContact(s);
    const res = await expectRejected(s, put(other.id, { customFields: { Region: 'North', Score: 1 } }), 400, {
      field: 'customFields.Region',
      contacts: [other.id, c.id],
    });
    expect(res.body.details[0].issue).toMatch(/retired/);
    // options are never created through the contact API
    await expectRejected(s, put(other.id, { customFields: { Region: 'East' } }), 400, {
      field: 'customFields.Region',
    });
    expect(
      (await s.request('GET', `/api/v1/custom-fields?accountId=${s.accountId}`)).body.data
        .find((d: CustomFieldDef) => d.id === f.id)
        .options.map((o: { name: string }) => o.name),
    ).toEqual(['North', 'South']);
  });

  it('an archived field is not returned and cannot be changed or cleared; unarchived, its value is back', async () => {
    const f = await makeCustomField(s, 'Legacy Code', 'text');
    const c = await makeContact(s, { customFields: { 'Legacy Code': 'LX-1', Score: 5 } });
    await customFieldAction(s, f.id, { action: 'archive' });
    expect((await getContact(s, c.id)).customFields).toEqual({ Score: 5 });
    await expectRejected(s, put(c.id, { customFields: { 'Legacy Code': 'LX-2', Score: 6 } }), 400, {
      field: 'customFields.Legacy Code',
      contacts: [c.id],
    });
    await expectRejected(s, put(c.id, { customFields: { 'legacy code': null } }), 400, {
      field: 'customFields.legacy code',
      contacts: [c.id],
    });
    await expectRejected(s, create({ customFields: { 'Legacy Code': 'LX-3' } }), 400, {
      field: 'customFields.Legacy Code',
    });
    await customFieldAction(s, f.id, { action: 'unarchive' });
    expect((await getContact(s, c.id)).customFields).toEqual({ Score: 5, 'Legacy Code': 'LX-1' });
  });

  it('lists every problem of one request', async () => {
    const c = await makeContact(s);
    const res = await expectRejected(
      s,
      put(c.id, { customFields: { Nope: 1, Score: 'x', Level: 'Tin' } }),
      400,
      { contacts: [c.id] },
    );
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual([
      'customFields.Nope',
      'customFields.Score',
      'customFields.Level',
    ]);
  });
});

describe('lists', () => {
  it('omit customFields', async () => {
    await makeContact(s, { firstName: 'Listed', customFields: { Score: 99 } });
    const page = expectStatus(
      await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=listed`),
      200,
    );
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).not.toHaveProperty('customFields');
    expect(Object.keys(page.data[0]).sort()).toEqual([
      'createdAt',
      'email',
      'firstName',
      'id',
      'lastName',
      'organization',
      'phone',
      'updatedAt',
    ]);
  });
});
