/**
 * The extension routes the Settings screen drives, over real HTTP on whichever engine the
 * suite runs on (SQLite, or PostgreSQL through test/run-postgres.mjs): campaigns,
 * committees, donation accounts and their limits, custom field definitions, the election
 * calendar and the default election, API keys, CSV import with progress and rejected rows,
 * CSV export. Every refusal names its field and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../electron/domain/import-export/csv-reader.ts';
import {
  asNewAccount,
  customFieldAction,
  expectRejected,
  expectStatus,
  makeCampaign,
  makeCommittee,
  makeContact,
  makeCustomField,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const q = (t: TestServer) => `accountId=${t.accountId}`;

describe('campaigns', () => {
  it('are created, listed by name with their totals and donation accounts, read, renamed and relinked', async () => {
    const t = await asNewAccount(s);
    const federal = await makeDonationAccount(t, { perElection: 3300 }, 'Federal');
    const state = await makeDonationAccount(t, {}, 'State');
    const gala = await makeCampaign(t, 'Spring Gala', [federal.id]);
    await makeCampaign(t, 'Annual Fund');
    expect(gala).toMatchObject({
      name: 'Spring Gala',
      donationAccounts: [{ id: federal.id, name: 'Federal' }],
      totalRaised: 0,
      donationCount: 0,
    });

    const donor = await makeContact(t);
    await makeDonation(t, donor.id, { campaignId: gala.id, donationAmount: 125.5 });
    const list = expectStatus(await t.request('GET', `/api/v1/campaigns?${q(t)}`), 200);
    expect(list.data.map((c: { name: string }) => c.name)).toEqual(['Annual Fund', 'Spring Gala']);
    expect(list.data[1]).toMatchObject({ id: gala.id, totalRaised: 125.5, donationCount: 1 });

    const renamed = expectStatus(
      await t.request('PUT', `/api/v1/campaigns/${gala.id}`, {
        name: '  Spring Gala 2026 ',
        donationAccountIds: [state.id, federal.id],
      }),
      200,
    );
    expect(renamed).toMatchObject({ id: gala.id, name: 'Spring Gala 2026', totalRaised: 125.5 });
    expect(renamed.donationAccounts.map((d: { name: string }) => d.name)).toEqual(['Federal', 'State']);
    // a rename alone keeps the links
    const again = expectStatus(await t.request('PUT', `/api/v1/campaigns/${gala.id}`, { name: 'Gala' }), 200);
    expect(again.donationAccounts).toHaveLength(2);
    expect(expectStatus(await t.request('GET', `/api/v1/campaigns/${gala.id}?${q(t)}`), 200)).toEqual(again);
    // an empty list unlinks every account
    expect(
      expectStatus(await t.request('PUT', `/api/v1/campaigns/${gala.id}`, { donationAccountIds: [] }), 200)
        .donationAccounts,
    ).toEqual([]);
  });

  it('refuses an empty name (400 naming it), an unknown donation account or campaign (404), changing nothing', async () => {
    const gala = await makeCampaign(s, 'Refusals Gala');
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/campaigns', { accountId: s.accountId, name: '   ' }),
      400,
      { field: 'name' },
    );
    await expectRejected(s, () => s.request('POST', '/api/v1/campaigns', { accountId: s.accountId }), 400, {
      field: 'name',
    });
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/campaigns', {
          accountId: s.accountId,
          name: 'X',
          donationAccountIds: ['dac_nope'],
        }),
      404,
      { field: 'donationAccountIds[0]' },
    );
    await expectRejected(s, () => s.request('PUT', `/api/v1/campaigns/${gala.id}`, { name: '' }), 400, {
      field: 'name',
    });
    await expectRejected(
      s,
      () =>
        s.request('PUT', `/api/v1/campaigns/${gala.id}`, {
          name: 'Renamed',
          donationAccountIds: ['dac_nope'],
        }),
      404,
      { field: 'donationAccountIds[0]' },
    );
    await expectRejected(s, () => s.request('PUT', '/api/v1/campaigns/cmp_nope', { name: 'Renamed' }), 404, {
      field: 'id',
    });
    // another account's campaign is as missing as one that never existed
    const t = await asNewAccount(s);
    await expectRejected(s, () => t.request('PUT', `/api/v1/campaigns/${gala.id}`, { name: 'Theirs' }), 404, {
      field: 'id',
    });
  });
});

describe('committees', () => {
  it('are created, listed by name and renamed; an empty name or unknown id is refused', async () => {
    const t = await asNewAccount(s);
    const b = await makeCommittee(t, 'Host Committee');
    await makeCommittee(t, 'Advisory Board');
    expect(
      expectStatus(await t.request('GET', `/api/v1/committees?${q(t)}`), 200).data.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['Advisory Board', 'Host Committee']);
    expect(
      expectStatus(await t.request('PUT', `/api/v1/committees/${b.id}`, { name: 'Hosts' }), 200),
    ).toEqual({ id: b.id, name: 'Hosts', createdAt: expect.stringMatching(/Z$/) });
    await expectRejected(
      t,
      () => t.request('POST', '/api/v1/committees', { accountId: t.accountId, name: '' }),
      400,
      { field: 'name' },
    );
    await expectRejected(t, () => t.request('PUT', `/api/v1/committees/${b.id}`, { name: 7 }), 400, {
      field: 'name',
    });
    await expectRejected(t, () => t.request('PUT', '/api/v1/committees/cmt_nope', { name: 'X' }), 404, {
      field: 'id',
    });
  });
});

describe('donation accounts and their limits', () => {
  it('store limits in whole cents, change one limit at a time, and clear one with null', async () => {
    const t = await asNewAccount(s);
    const dac = await makeDonationAccount(t, { perElection: 3300, perYear: 10000.5 }, 'Federal PAC');
    expect(dac.limits).toEqual({ perElection: 3300, perCycle: null, perYear: 10000.5, perDonor: null });
    const changed = expectStatus(
      await t.request('PUT', `/api/v1/donation-accounts/${dac.id}`, {
        limits: { perCycle: 6600, perYear: null },
      }),
      200,
    );
    expect(changed.limits).toEqual({ perElection: 3300, perCycle: 6600, perYear: null, perDonor: null });
    expect(changed.name).toBe('Federal PAC');
    const list = expectStatus(await t.request('GET', `/api/v1/donation-accounts?${q(t)}`), 200);
    expect(list.data).toEqual([changed]);
  });

  it('refuses a negative limit, fractions of a cent, a text limit, an empty name: 400 naming the limit', async () => {
    const dac = await makeDonationAccount(s, { perDonor: 100 }, 'Limits refused');
    const post = (limits: Record<string, unknown>) => () =>
      s.request('POST', '/api/v1/donation-accounts', { accountId: s.accountId, name: 'Bad', limits });
    await expectRejected(s, post({ perElection: -1 }), 400, { field: 'limits.perElection' });
    await expectRejected(s, post({ perCycle: 10.005 }), 400, { field: 'limits.perCycle' });
    await expectRejected(s, post({ perYear: '2900' }), 400, { field: 'limits.perYear' });
    await expectRejected(
      s,
      () => s.request('PUT', `/api/v1/donation-accounts/${dac.id}`, { limits: { perDonor: -5 } }),
      400,
      { field: 'limits.perDonor' },
    );
    await expectRejected(
      s,
      () => s.request('PUT', `/api/v1/donation-accounts/${dac.id}`, { name: ' ' }),
      400,
      { field: 'name' },
    );
  });
});

describe('custom field definitions', () => {
  it('of each type; pick-list options added, retired (kept on the list, marked) and brought back; a field archived and unarchived', async () => {
    const t = await asNewAccount(s);
    await makeCustomField(t, 'Nickname', 'text');
    await makeCustomField(t, 'Score', 'number');
    await makeCustomField(t, 'Member Since', 'date');
    const level = await makeCustomField(t, 'Level', 'picklist', ['Bronze', 'Silver']);
    const added = await customFieldAction(t, level.id, { action: 'addOption', option: 'Gold' });
    expect(added.options.map((o) => [o.name, o.retired])).toEqual([
      ['Bronze', false],
      ['Silver', false],
      ['Gold', false],
    ]);
    const retired = await customFieldAction(t, level.id, { action: 'retireOption', option: 'bronze' });
    expect(retired.options.map((o) => [o.name, o.retired])).toEqual([
      ['Bronze', true],
      ['Silver', false],
      ['Gold', false],
    ]);
    // a contact cannot be given a retired option
    await expectRejected(
      t,
      () =>
        t.request('POST', '/api/v1/contacts', {
          accountId: t.accountId,
          firstName: 'A',
          lastName: 'B',
          customFields: { Level: 'Bronze' },
        }),
      400,
      { field: 'customFields.Level' },
    );
    // adding it again brings it back
    expect(
      (await customFieldAction(t, level.id, { action: 'addOption', option: 'BRONZE' })).options[0],
    ).toMatchObject({ name: 'Bronze', retired: false });

    const archived = await customFieldAction(t, level.id, { action: 'archive' });
    expect(archived.archived).toBe(true);
    const list = expectStatus(await t.request('GET', `/api/v1/custom-fields?${q(t)}`), 200);
    expect(
      list.data.map((f: { name: string; type: string; archived: boolean }) => [f.name, f.type, f.archived]),
    ).toEqual([
      ['Nickname', 'text', false],
      ['Score', 'number', false],
      ['Member Since', 'date', false],
      ['Level', 'picklist', true],
    ]);
    expect((await customFieldAction(t, level.id, { action: 'unarchive' })).archived).toBe(false);
  });

  it('refuses a pick list without options, options on a text field, a repeated option, a retired option that does not exist, an unknown action', async () => {
    const text = await makeCustomField(s, 'Refusal Text', 'text');
    const pick = await makeCustomField(s, 'Refusal Pick', 'picklist', ['One']);
    const create = (body: Record<string, unknown>) => () =>
      s.request('POST', '/api/v1/custom-fields', { accountId: s.accountId, ...body });
    await expectRejected(s, create({ name: 'P', type: 'picklist' }), 400, { field: 'options' });
    await expectRejected(s, create({ name: 'P', type: 'picklist', options: ['a', 'A'] }), 400, {
      field: 'options',
    });
    await expectRejected(s, create({ name: 'T', type: 'text', options: ['a'] }), 400, { field: 'options' });
    await expectRejected(s, create({ name: 'T', type: 'money' }), 400, { field: 'type' });
    await expectRejected(s, create({ name: 'refusal TEXT', type: 'text' }), 409, { field: 'name' });
    const act = (id: string, body: Record<string, unknown>) => () =>
      s.request('POST', `/api/v1/custom-fields/${id}/actions`, { accountId: s.accountId, ...body });
    await expectRejected(s, act(text.id, { action: 'addOption', option: 'x' }), 400, { field: 'option' });
    await expectRejected(s, act(pick.id, { action: 'retireOption', option: 'Two' }), 404, {
      field: 'option',
    });
    await expectRejected(s, act(pick.id, { action: 'addOption', option: '  ' }), 400, { field: 'option' });
    await expectRejected(s, act(pick.id, { action: 'delete' }), 400, { field: 'action' });
    await expectRejected(s, act('cf_nope', { action: 'archive' }), 404, { field: 'id' });
  });
});

describe('elections and the default election', () => {
  it('are listed by date; the default is set, shown on the account and the calendar, and cleared', async () => {
    const t = await asNewAccount(s);
    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'general',
        electionYear: 2026,
        electionDate: '2026-11-03',
      }),
      201,
    );
    const primary = expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'primary',
        electionYear: 2026,
        electionDate: '2026-06-02',
      }),
      201,
    );
    expect(primary).toMatchObject({ id: expect.stringMatching(/^\w+_/), isDefault: false });
    const set = expectStatus(
      await t.request('PUT', '/api/v1/elections/default', {
        accountId: t.accountId,
        electionType: 'primary',
        electionYear: 2026,
      }),
      200,
    );
    expect(set.defaultElection).toEqual({ electionType: 'primary', electionYear: 2026 });
    const cal = expectStatus(await t.request('GET', `/api/v1/elections?${q(t)}`), 200);
    expect(
      cal.data.map((e: { electionType: string; isDefault: boolean }) => [e.electionType, e.isDefault]),
    ).toEqual([
      ['primary', true],
      ['general', false],
    ]);
    expect(expectStatus(await t.request('GET', `/api/v1/account?${q(t)}`), 200).defaultElection).toEqual({
      electionType: 'primary',
      electionYear: 2026,
    });
    // a new default given at creation replaces the old one
    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'general',
        electionYear: 2028,
        electionDate: '2028-11-07',
        isDefault: true,
      }),
      201,
    );
    expect(expectStatus(await t.request('GET', `/api/v1/account?${q(t)}`), 200).defaultElection).toEqual({
      electionType: 'general',
      electionYear: 2028,
    });
    expectStatus(
      await t.request('PUT', '/api/v1/elections/default', {
        accountId: t.accountId,
        electionType: null,
        electionYear: null,
      }),
      200,
    );
    expect(expectStatus(await t.request('GET', `/api/v1/account?${q(t)}`), 200).defaultElection).toBeNull();
  });

  it('refuses a second election of the same type and year (409), a date outside its year, a half default', async () => {
    const t = await asNewAccount(s);
    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'runoff',
        electionYear: 2026,
        electionDate: '2026-12-01',
      }),
      201,
    );
    const post = (body: Record<string, unknown>) => () =>
      t.request('POST', '/api/v1/elections', { accountId: t.accountId, ...body });
    await expectRejected(
      t,
      post({ electionType: 'runoff', electionYear: 2026, electionDate: '2026-12-08' }),
      409,
      { field: 'electionType' },
    );
    await expectRejected(
      t,
      post({ electionType: 'special', electionYear: 2026, electionDate: '2027-01-05' }),
      400,
      { field: 'electionDate' },
    );
    await expectRejected(
      t,
      post({ electionType: 'special', electionYear: 2026, electionDate: '2026-02-30' }),
      400,
      { field: 'electionDate' },
    );
    await expectRejected(
      t,
      post({ electionType: 'mayoral', electionYear: 2026, electionDate: '2026-02-03' }),
      400,
      { field: 'electionType' },
    );
    await expectRejected(
      t,
      () =>
        t.request('PUT', '/api/v1/elections/default', {
          accountId: t.accountId,
          electionType: 'general',
          electionYear: null,
        }),
      400,
      { field: 'electionYear' },
    );
  });
});

describe('API keys for local scripts', () => {
  it('shows the secret once; the list never has it; a revoked key stops working at once', async () => {
    const t = await asNewAccount(s);
    const made = expectStatus(
      await t.request('POST', '/api/v1/api-keys', { accountId: t.accountId, label: ' nightly reconcile ' }),
      201,
    );
    expect(made).toEqual({
      keyId: expect.stringMatching(/^gdk_/),
      secret: expect.stringMatching(/^gds_/),
      accountId: t.accountId,
      role: 'administrator',
    });
    const auth = { 'x-api-key': made.keyId, authorization: `Bearer ${made.secret}` };
    expectStatus(await rawRequest(`${s.url}/api/v1/contacts?${q(t)}`, 'GET', undefined, auth), 200);
    const list = expectStatus(await t.request('GET', `/api/v1/api-keys?${q(t)}`), 200);
    expect(JSON.stringify(list)).not.toContain(made.secret);
    expect(list.data.find((k: { keyId: string }) => k.keyId === made.keyId)).toMatchObject({
      label: 'nightly reconcile',
      revokedAt: null,
      role: 'administrator',
    });

    expectStatus(await t.request('DELETE', `/api/v1/api-keys/${made.keyId}?${q(t)}`), 200);
    expect((await rawRequest(`${s.url}/api/v1/contacts?${q(t)}`, 'GET', undefined, auth)).status).toBe(401);
    const after = expectStatus(await t.request('GET', `/api/v1/api-keys?${q(t)}`), 200);
    expect(after.data.find((k: { keyId: string }) => k.keyId === made.keyId).revokedAt).toMatch(/Z$/);
    // another account cannot revoke this account's key: as missing as an unknown one
    await expectRejected(s, () => s.request('DELETE', `/api/v1/api-keys/${t.keyId}?${q(s)}`), 404, {
      field: 'keyId',
    });
    expectStatus(await t.request('GET', `/api/v1/account?${q(t)}`), 200);
  });
});

describe('CSV import with progress and rejected rows; CSV export', () => {
  const csv = (rows: Array<Array<string | number>>) => rows.map((r) => csvLine(r)).join('');

  async function follow(t: TestServer, id: string): Promise<Array<Record<string, number | string | null>>> {
    const seen: Array<Record<string, number | string | null>> = [];
    // Until it finishes, however long a loaded machine takes (the test's timeout bounds it).
    for (;;) {
      const job = expectStatus(await t.request('GET', `/api/v1/imports/${id}?${q(t)}`), 200);
      seen.push(job);
      if (job.status !== 'running') return seen;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('counts the rows on arrival, never goes backwards, ends at the total; the rejected rows download as CSV; the export imports back adding nothing', async () => {
    const t = await asNewAccount(s);
    const rows: Array<Array<string | number>> = [['externalId', 'firstName', 'lastName', 'primaryEmail']];
    for (let i = 0; i < 2500; i++)
      rows.push([`p${i}`, `First${i}`, `Last${i}`, i === 7 ? 'not-an-email' : `p${i}@example.org`]);
    rows.push(['p-bad', '', 'NoFirst', '']);
    const started = await t.request('POST', `/api/v1/imports?${q(t)}&kind=contacts`, csv(rows), {
      'content-type': 'text/csv',
    });
    const job = expectStatus(started, 202);
    expect(job).toMatchObject({ status: 'running', totalRows: 2501, processedRows: 0 });

    const seen = await follow(t, job.id);
    const processed = seen.map((j) => Number(j.processedRows));
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
    expect(seen.every((j) => Number(j.processedRows) <= Number(j.totalRows))).toBe(true);
    expect(seen.at(-1)).toMatchObject({
      status: 'done',
      totalRows: 2501,
      processedRows: 2501,
      imported: 2499,
      rejectedCount: 2,
      error: null,
    });

    const rejected = await t.request('GET', `/api/v1/imports/${job.id}/rejected.csv?${q(t)}`);
    expect(rejected.status).toBe(200);
    expect(rejected.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(rejected.headers.get('content-disposition')).toMatch(/attachment; filename=".+-rejected\.csv"/);
    const lines = rejected.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,reason');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['9', '2502']);
    expect(lines[1]).toMatch(/primaryEmail/);
    expect(lines[2]).toMatch(/firstName/);

    const exported = await t.request('GET', `/api/v1/exports/contacts.csv?${q(t)}`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="contacts.csv"');
    const exportedLines = exported.text.trimEnd().split('\r\n');
    expect(exportedLines).toHaveLength(2500);
    expect(exportedLines.some((l) => l.startsWith('p0,') || l.includes(',p0,'))).toBe(true);

    const back = expectStatus(
      await t.request('POST', `/api/v1/imports?${q(t)}&kind=contacts`, exported.text, {
        'content-type': 'text/csv',
      }),
      202,
    );
    expect((await follow(t, back.id)).at(-1)).toMatchObject({
      status: 'done',
      imported: 0,
      skipped: 2499,
      rejectedCount: 0,
    });
    expect(expectStatus(await t.request('GET', `/api/v1/account?${q(t)}`), 200).contacts).toBe(2499);
  });

  it('exports donations as CSV, an empty account as the header row alone', async () => {
    const t = await asNewAccount(s);
    const empty = await t.request('GET', `/api/v1/exports/donations.csv?${q(t)}`);
    expect(empty.status).toBe(200);
    expect(empty.text.split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(empty.text).toMatch(/^externalId,contactExternalId,donationAmount,/);
    const gala = await makeCampaign(t, 'Export Gala');
    const donor = await makeContact(t);
    await makeDonation(t, donor.id, { campaignId: gala.id, donationAmount: 42.1 });
    const full = await t.request('GET', `/api/v1/exports/donations.csv?${q(t)}`);
    const lines = full.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',42.10,');
    expect(lines[1]).toContain(gala.id);
  });
});
