/**
 * Contacts: create defaults and shapes, the read shape, PUT rules C1–C3, enum and field
 * validation, 404 for unknown contacts, and DELETE taking the contact's gifts with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectRejected,
  expectStatus,
  getContact,
  makeCampaign,
  makeContact,
  makeDonation,
  makeDonationAccount,
  snapshot,
  expectUnchanged,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Contacts Campaign')).id;
});
afterAll(async () => {
  await s?.close();
});

const full = {
  prefix: 'Dr.',
  middleName: 'Marie',
  suffix: 'PhD',
  salutation: 'Ada',
  formalSalutation: 'Dear Dr. Lovelace',
  organization: 'Analytical Engines Ltd',
  title: 'Director',
  employer: 'Analytical Engines Ltd',
  occupation: 'Mathematician',
  industry: 'Computing',
  spouse: 'William',
  birthDate: '1985-12-10',
  gender: 'FEMALE',
  politicalParty: 'Independent',
  capacity: '$10k-$25k',
  quickNotes: 'Prefers letters',
  source: 'Gala 2025',
  tags: ['major donor', 'board'],
  preferredContactMethod: 'MAIL',
  phoneNumbers: [
    { phoneNumber: '+1 555 0100', phoneType: 'home' },
    { phoneNumber: '+1 555 0199', phoneType: 'mobile', isPrimary: true },
  ],
  emailAddresses: [
    { emailAddress: 'ada@work.example', emailType: 'work' },
    { emailAddress: 'ada@home.example', emailType: 'personal', isPrimary: true },
  ],
  addresses: [
    { addressType: 'work', street1: '1 Engine Way', city: 'London', postalCode: 'N1', country: 'UK' },
    { addressType: 'home', street1: '12 St James Sq', city: 'London', country: 'UK', isPrimary: true },
  ],
  education: [{ institution: 'Home tutoring', fieldOfStudy: 'Mathematics', graduationYear: 2007 }],
  employment: [{ employer: 'Babbage & Co', title: 'Analyst', startDate: '2012-01-01', isCurrent: false }],
  notes: [{ content: 'Met at the gala', noteType: 'meeting' }],
};

describe('create', () => {
  it('applies the defaults: INDIVIDUAL, ACTIVE, totalDonated 0, lastDonationDate null, a cnt_ id', async () => {
    const res = await s.request('POST', '/api/v1/contacts', {
      accountId: s.accountId,
      firstName: 'New',
      lastName: 'Person',
    });
    const c = expectStatus(res, 201);
    expect(c.id).toMatch(/^cnt_[0-9A-Z]{26}$/);
    expect(c).toMatchObject({
      firstName: 'New',
      lastName: 'Person',
      contactType: 'INDIVIDUAL',
      status: 'ACTIVE',
      totalDonated: 0,
      lastDonationDate: null,
      tags: [],
      customFields: {},
    });
    for (const k of ['phoneNumbers', 'emailAddresses', 'addresses', 'education', 'employment', 'notes'])
      expect(c[k]).toEqual([]);
    expect(c.createdAt).toMatch(/Z$/);
    expect(c.updatedAt).toBe(c.createdAt);
  });

  it('returns the submitted fields and every sub-record with a generated id', async () => {
    const c = await makeContact(s, { ...full, contactType: 'HOUSEHOLD', status: 'INACTIVE' });
    const { phoneNumbers, emailAddresses, addresses, education, employment, notes, ...scalars } = full;
    expect(c).toMatchObject({ ...scalars, contactType: 'HOUSEHOLD', status: 'INACTIVE' });
    expect(c.phoneNumbers).toMatchObject(
      phoneNumbers.map((p) => ({ ...p, isPrimary: p.isPrimary ?? false })),
    );
    expect(c.emailAddresses).toMatchObject(
      emailAddresses.map((e) => ({ ...e, isPrimary: e.isPrimary ?? false })),
    );
    expect(c.addresses).toMatchObject(addresses);
    expect(c.education).toMatchObject(education);
    expect(c.employment).toMatchObject(employment);
    expect(c.notes).toMatchObject(notes);
    const subIds = [c.phoneNumbers, c.emailAddresses, c.addresses, c.education, c.employment, c.notes]
      .flat()
      .map((x: { id: string }) => x.id);
    expect(subIds).toHaveLength(9);
    expect(new Set(subIds).size).toBe(9);
    for (const id of subIds) expect(id).toMatch(/^[a-z]+_[0-9A-Z]{26}$/);
  });

  it('refuses a missing firstName or lastName, saving nothing', async () => {
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/contacts', { accountId: s.accountId, lastName: 'Only' }),
      400,
      { field: 'firstName' },
    );
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/contacts', { accountId: s.accountId, firstName: 'Only', lastName: '   ' }),
      400,
      { field: 'lastName' },
    );
  });
});

describe('read', () => {
  it('returns the full record with the primary email, phone and address, totals and the last gift', async () => {
    const created = await makeContact(s, full);
    await makeDonation(s, created.id, { campaignId, donationAmount: 250, donationDate: '2026-02-01' });
    await makeDonation(s, created.id, {
      campaignId,
      donationAmount: 100.25,
      donationDate: '2026-04-01T09:00:00Z',
    });
    await makeDonation(s, created.id, { campaignId, donationAmount: 10, donationDate: '2025-12-24' }); // older: last date stays
    const c = await getContact(s, created.id);
    for (const k of [
      'id',
      'firstName',
      'lastName',
      'email',
      'phone',
      'organization',
      'address',
      'notes',
      'tags',
      'totalDonations',
      'lastDonationDate',
      'customFields',
      'createdAt',
      'updatedAt',
    ]) {
      expect(c, k).toHaveProperty(k);
    }
    expect(c.email).toBe('ada@home.example');
    expect(c.phone).toBe('+1 555 0199');
    expect(c.address).toMatchObject({ street1: '12 St James Sq', isPrimary: true });
    expect(c.totalDonations).toBe(360.25);
    expect(c.lastDonationDate).toBe('2026-04-01T09:00:00.000Z');
    expect(c.organization).toBe('Analytical Engines Ltd');
    expect(c.tags).toEqual(['major donor', 'board']);
  });

  it('prefers primaryEmail and primaryPhone over sub-records, and falls back to the first sub-record', async () => {
    const a = await makeContact(s, {
      primaryEmail: 'main@example.org',
      primaryPhone: '555-1000',
      emailAddresses: [{ emailAddress: 'other@example.org', isPrimary: true }],
    });
    expect(await getContact(s, a.id)).toMatchObject({ email: 'main@example.org', phone: '555-1000' });
    const b = await makeContact(s, {
      emailAddresses: [{ emailAddress: 'first@example.org' }, { emailAddress: 'second@example.org' }],
      addresses: [{ city: 'Paris' }],
    });
    expect(await getContact(s, b.id)).toMatchObject({
      email: 'first@example.org',
      phone: null,
      address: { city: 'Paris' },
    });
    const none = await makeContact(s);
    expect(await getContact(s, none.id)).toMatchObject({
      email: null,
      phone: null,
      address: null,
      totalDonations: 0,
      lastDonationDate: null,
    });
  });
});

describe('update (PUT)', () => {
  it('C1: changes only the fields sent', async () => {
    const c = await makeContact(s, full);
    const before = await getContact(s, c.id);
    const res = expectStatus(
      await s.request('PUT', `/api/v1/contacts/${c.id}`, { title: 'Chair', quickNotes: null }),
      200,
    );
    const { title: _t, quickNotes: _q, updatedAt: _u, ...unchanged } = before;
    expect(res).toMatchObject({ ...unchanged, title: 'Chair', quickNotes: null });
    expect(await getContact(s, c.id)).toEqual(res);
    expect(res.updatedAt >= before.updatedAt).toBe(true);
  });

  it('answers in the read shape (totalDonations, email, phone, address)', async () => {
    const c = await makeContact(s, full);
    await makeDonation(s, c.id, { campaignId, donationAmount: 42 });
    const res = expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { spouse: 'Will' }), 200);
    expect(res).toMatchObject({
      totalDonations: 42,
      email: 'ada@home.example',
      phone: '+1 555 0199',
      lastDonationDate: '2026-03-01T00:00:00.000Z',
    });
    expect(res.address).toMatchObject({ isPrimary: true });
  });

  it('an empty body changes nothing', async () => {
    const c = await makeContact(s, full);
    const before = await snapshot(s, { contacts: [c.id] });
    expect(expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, {}), 200)).toEqual(
      before.contacts[c.id].body,
    );
    await expectUnchanged(s, before);
  });

  it('moves a contact to each status', async () => {
    const c = await makeContact(s);
    for (const status of ['INACTIVE', 'DO_NOT_CONTACT', 'BOUNCED', 'ACTIVE']) {
      expect(expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { status }), 200).status).toBe(
        status,
      );
      expect((await getContact(s, c.id)).status).toBe(status);
    }
  });

  it('C2: tags replace the existing tags; tags not sent stay', async () => {
    const c = await makeContact(s, { tags: ['a', 'b'] });
    expect(
      expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { tags: ['c'] }), 200).tags,
    ).toEqual(['c']);
    expect(
      expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { title: 'x' }), 200).tags,
    ).toEqual(['c']);
    expect(expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { tags: [] }), 200).tags).toEqual(
      [],
    );
  });

  it('C3: each sub-record array sent replaces that collection only', async () => {
    const c = await makeContact(s, full);
    const res = expectStatus(
      await s.request('PUT', `/api/v1/contacts/${c.id}`, {
        phoneNumbers: [{ phoneNumber: '+44 20 0000', phoneType: 'office', isPrimary: true }],
        addresses: [],
      }),
      200,
    );
    expect(res.phoneNumbers).toHaveLength(1);
    expect(res.phoneNumbers[0]).toMatchObject({
      phoneNumber: '+44 20 0000',
      phoneType: 'office',
      isPrimary: true,
    });
    expect(c.phoneNumbers.map((p) => p.id)).not.toContain(res.phoneNumbers[0].id);
    expect(res.phone).toBe('+44 20 0000');
    expect(res.addresses).toEqual([]);
    expect(res.address).toBeNull();
    // untouched collections keep their records and ids
    expect(res.emailAddresses).toEqual(c.emailAddresses);
    expect(res.education).toEqual(c.education);
    expect(res.employment).toEqual(c.employment);
    expect(res.notes).toEqual(c.notes);
    // replace emails: the shown email follows
    const res2 = expectStatus(
      await s.request('PUT', `/api/v1/contacts/${c.id}`, {
        emailAddresses: [{ emailAddress: 'new@example.org' }],
        notes: [{ content: 'n1' }, { content: 'n2' }],
      }),
      200,
    );
    expect(res2.email).toBe('new@example.org');
    expect(res2.notes.map((n: { content: string }) => n.content)).toEqual(['n1', 'n2']);
    expect(res2.phoneNumbers).toEqual(res.phoneNumbers);
  });

  it('refuses two primaries in one collection, changing nothing', async () => {
    const c = await makeContact(s, full);
    await expectRejected(
      s,
      () =>
        s.request('PUT', `/api/v1/contacts/${c.id}`, {
          firstName: 'Changed',
          phoneNumbers: [
            { phoneNumber: '1', isPrimary: true },
            { phoneNumber: '2', isPrimary: true },
          ],
        }),
      400,
      {
        field: 'phoneNumbers[1].isPrimary',
        contacts: [c.id],
      },
    );
  });
});

describe('validation: 400 naming the field, nothing changed', () => {
  it.each([
    ['contactType', 'PERSON'],
    ['contactType', 'individual'],
    ['status', 'ARCHIVED'],
    ['gender', 'M'],
    ['preferredContactMethod', 'FAX'],
    ['primaryEmail', 'not-an-email'],
    ['birthDate', '1990-02-30'],
    ['firstName', ''],
    ['firstName', null],
    ['tags', 'donor'],
    ['phoneNumbers', { phoneNumber: '1' }],
  ])('%s = %j', async (field, value) => {
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/contacts', {
          accountId: s.accountId,
          firstName: 'Bad',
          lastName: 'Input',
          [field]: value,
        }),
      400,
      { code: 'validation_failed', field },
    );
    const c = await makeContact(s, full);
    await expectRejected(
      s,
      () => s.request('PUT', `/api/v1/contacts/${c.id}`, { lastName: 'Changed', [field]: value }),
      400,
      { code: 'validation_failed', field, contacts: [c.id] },
    );
  });

  it('says what is wrong in plain words', async () => {
    const post = (fields: Record<string, unknown>) => () =>
      s.request('POST', '/api/v1/contacts', {
        accountId: s.accountId,
        firstName: 'A',
        lastName: 'B',
        ...fields,
      });
    const issue = async (fields: Record<string, unknown>) =>
      (await expectRejected(s, post(fields), 400)).body.details[0];
    expect(await issue({ education: [{ institution: 'X', graduationYear: 1835 }] })).toEqual({
      field: 'education[0].graduationYear',
      issue: 'must be at least 1900',
    });
    expect(await issue({ education: [{ institution: 'X', graduationYear: 2007.5 }] })).toEqual({
      field: 'education[0].graduationYear',
      issue: 'must be a whole number',
    });
    expect(await issue({ firstName: 'x'.repeat(101) })).toEqual({
      field: 'firstName',
      issue: 'must be at most 100 characters',
    });
    expect(await issue({ addresses: 'home' })).toEqual({ field: 'addresses', issue: 'must be an array' });
    expect(await issue({ lastName: undefined })).toEqual({ field: 'lastName', issue: 'is required' });
  });

  it('names the nested field of a bad sub-record', async () => {
    const c = await makeContact(s, full);
    await expectRejected(
      s,
      () =>
        s.request('PUT', `/api/v1/contacts/${c.id}`, {
          emailAddresses: [{ emailAddress: 'ok@example.org' }, { emailAddress: 'broken' }],
        }),
      400,
      { field: 'emailAddresses[1].emailAddress', contacts: [c.id] },
    );
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/contacts', {
          accountId: s.accountId,
          firstName: 'A',
          lastName: 'B',
          phoneNumbers: [{ phoneType: 'mobile' }],
        }),
      400,
      { field: 'phoneNumbers[0].phoneNumber' },
    );
  });
});

describe('unknown contacts: 404', () => {
  const ghost = 'cnt_01JD0000000000000000000000';
  it('GET, PUT and DELETE of a contact that does not exist', async () => {
    await expectRejected(
      s,
      () => s.request('GET', `/api/v1/contacts/${ghost}?accountId=${s.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
    await expectRejected(
      s,
      () => s.request('PUT', `/api/v1/contacts/${ghost}`, { firstName: 'Nobody' }),
      404,
      { code: 'contact_not_found' },
    );
    await expectRejected(
      s,
      () => s.request('DELETE', `/api/v1/contacts/${ghost}?accountId=${s.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
  });

  it("GET, PUT and DELETE of another account's contact, exactly as if it did not exist", async () => {
    const them = await asNewAccount(s);
    const theirs = await makeContact(them, { firstName: 'Not', lastName: 'Yours' });
    const missing = await s.request('GET', `/api/v1/contacts/${ghost}?accountId=${s.accountId}`);
    const get = await expectRejected(
      s,
      () => s.request('GET', `/api/v1/contacts/${theirs.id}?accountId=${s.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
    expect({ ...get.body, message: '' }).toEqual({ ...missing.body, message: '' });
    await expectRejected(
      s,
      () => s.request('PUT', `/api/v1/contacts/${theirs.id}`, { firstName: 'Hijacked' }),
      404,
      { code: 'contact_not_found' },
    );
    await expectRejected(
      s,
      () => s.request('DELETE', `/api/v1/contacts/${theirs.id}?accountId=${s.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
    expect((await getContact(them, theirs.id)).firstName).toBe('Not');
  });
});

describe('delete', () => {
  it('removes the contact and its gifts: they leave the list, the totals and the review queue', async () => {
    const t = await asNewAccount(s);
    const cmp = await makeCampaign(t, 'Delete Campaign');
    const dac = await makeDonationAccount(t, { perYear: 100 });
    const keep = await makeContact(t, { firstName: 'Keep', lastName: 'Me' });
    const gone = await makeContact(t, { ...full, firstName: 'Gone', lastName: 'Soon' });
    const kept = await makeDonation(t, keep.id, { campaignId: cmp.id, donationAmount: 10 });
    await makeDonation(t, gone.id, { campaignId: cmp.id, donationAmount: 20 });
    await makeDonation(t, gone.id, {
      campaignId: cmp.id,
      donationAccountId: dac.id,
      donationAmount: 500,
      onBehalfOfContactId: keep.id,
    });
    expect(
      expectStatus(await t.request('GET', `/api/v1/flags?accountId=${t.accountId}`), 200).flagged,
    ).toHaveLength(1);

    const res = await t.request('DELETE', `/api/v1/contacts/${gone.id}?accountId=${t.accountId}`);
    expect(expectStatus(res, 200)).toEqual({ message: `Contact ${gone.id} deleted` });

    expectStatus(await t.request('GET', `/api/v1/contacts/${gone.id}?accountId=${t.accountId}`), 404);
    const list = expectStatus(await t.request('GET', `/api/v1/donations?accountId=${t.accountId}`), 200);
    expect(list).toMatchObject({ total: 1, donations: [{ id: kept.id }] });
    expect(
      expectStatus(
        await t.request('GET', `/api/v1/donations?accountId=${t.accountId}&startDate=2026-01-01`),
        200,
      ).total,
    ).toBe(1);
    expect(
      expectStatus(await t.request('GET', `/api/v1/campaigns/${cmp.id}?accountId=${t.accountId}`), 200),
    ).toMatchObject({ totalRaised: 10, donationCount: 1 });
    expect(
      expectStatus(await t.request('GET', `/api/v1/flags?accountId=${t.accountId}&state=all`), 200).flagged,
    ).toEqual([]);
    const contacts = expectStatus(await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}`), 200);
    expect(contacts).toMatchObject({ total: 1, data: [{ id: keep.id }] });
    expect(
      expectStatus(await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&search=gone`), 200)
        .total,
    ).toBe(0);
    expect((await getContact(t, keep.id)).totalDonations).toBe(10);
    // nothing of it is left in any table
    const snap = await snapshot(t);
    for (const [table, rows] of Object.entries(snap.rows)) {
      if (table === 'changeLog') continue; // the outbox records the delete itself
      for (const row of rows) expect(row, table).not.toContain(gone.id);
    }
    // deleting again: it no longer exists
    await expectRejected(
      t,
      () => t.request('DELETE', `/api/v1/contacts/${gone.id}?accountId=${t.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
  });
});
