/**
 * Importing donations: every row meets the API's rules (a bad row is rejected with its row
 * number and a reason naming the problem, and changes nothing), donors are found by
 * contactExternalId, a re-run adds nothing twice, totals, counters, the outbox and the
 * contribution-limit flags come out as if each gift had been posted one by one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { deleteContact } from '../../electron/domain/contacts/delete.ts';
import { voidDonation } from '../../electron/domain/donations/corrections.ts';
import { TEST_ENGINE, type TestServer, startTestServer } from '../helpers/server.ts';
import { type Org, contactIdOf, csvFile, importFile, makeOrg } from './fixtures.ts';

let s: TestServer;
let org: Org;

beforeEach(async () => {
  s = await startTestServer();
  org = await makeOrg(s);
  const donors = csvFile([
    ['externalId', 'firstName', 'lastName', 'primaryEmail'],
    ['L-1', 'Zoë', 'Núñez', 'zoe@example.org'],
    ['L-2', 'José', 'García', 'jose@example.org'],
    ['L-3', 'Siobhán', "O'Brien", ''],
  ]);
  const r = await importFile(s, donors, { kind: 'contacts' });
  expect(r).toMatchObject({ imported: 3, rejectedCount: 0 });
});
afterEach(async () => {
  await s.close();
});

const HEADER = [
  'externalId',
  'contactExternalId',
  'contactId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'electionType',
  'electionYear',
  'notes',
  'isAnonymous',
  'status',
];

/** A CSV row of a gift to a donor by external id, to the test's campaign, the other columns empty. */
const gift = (ext: string, donor: string, amount: string, date: string, method = 'cash') => [
  ext,
  donor,
  '',
  amount,
  date,
  method,
  org.campaignId,
  ...Array<string>(7).fill(''),
];

describe('import donations', () => {
  it('imports the good rows and rejects each bad one with its row number and a reason naming the problem', async () => {
    const jose = await contactIdOf(s, 'L-2');
    const c = org.campaignId;
    const file = csvFile([
      HEADER,
      ['g1', 'L-1', '', '$1,250.00', '2025-03-01', 'check', c, '', '', '', '', '', '', ''], // row 2
      [
        'g2',
        '',
        jose,
        '50',
        '2025-03-02T18:30:00Z',
        'Credit Card',
        c,
        '',
        '',
        '',
        '',
        '  ref #123  ',
        'yes',
        'completed',
      ], // row 3
      ['g3', 'L-1', '', '0', '2025-03-03', 'cash', c, '', '', '', '', '', '', ''], // 4: D1
      ['g4', 'L-1', '', 'lots', '2025-03-03', 'cash', c, '', '', '', '', '', '', ''], // 5: not a number
      ['g5', 'L-1', '', '20', '2025-03-03', 'cash', '', '', '', '', '', '', '', ''], // 6: D2
      ['g6', 'nobody', '', '20', '2025-03-03', 'cash', c, '', '', '', '', '', '', ''], // 7: unknown donor reference
      ['g7', 'L-1', '', '20', '2025-03-03', 'cash', 'cmp_nope', '', '', '', '', '', '', ''], // 8: unknown campaign
      ['g8', 'L-1', '', '20', '2025-02-30', 'cash', c, '', '', '', '', '', '', ''], // 9: impossible date
      ['g9', 'L-1', '', '20', '2025-03-03', 'bitcoin', c, '', '', '', '', '', '', ''], // 10: payment method
      ['g10', 'L-1', '', '20', '2025-03-03', 'cash', c, '', '', 'general', '', '', '', ''], // 11: D5 pair
      ['g11', 'L-3', '', '75.5', '2025-03-04', 'ach', '', org.committeeId, '', '', '', '', 'no', ''], // 12: good
      ['g12', 'L-1', '', '20', '2025-03-03', 'cash', c, '', '', '', '', '', '', 'refunded'], // 13: status
      ['g13', '', 'cnt_nope', '20', '2025-03-03', 'cash', c, '', '', '', '', '', '', ''], // 14: D3
      ['g14', 'L-1', '', '20.005', '2025-03-03', 'cash', c, '', '', '', '', '', '', ''], // 15: not whole cents
    ]);
    const r = await importFile(s, file, { kind: 'donations' });
    expect(r.imported).toBe(3);
    expect(r.skipped).toBe(0);
    expect(r.rejected.map((x) => x.row)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15]);
    const reason = (row: number) => r.rejected.find((x) => x.row === row)?.reason;
    expect(reason(4)).toMatch(/^donationAmount must be greater than zero/);
    expect(reason(5)).toMatch(/^donationAmount must be a number \(got "lots"\)/);
    expect(reason(6)).toMatch(/campaignId, committeeId or donationAccountId/);
    expect(reason(7)).toMatch(/contactExternalId nobody matches no contact/);
    expect(reason(8)).toMatch(/Campaign cmp_nope was not found/);
    expect(reason(9)).toMatch(/^donationDate must be .*ISO 8601/);
    expect(reason(10)).toMatch(/^paymentMethod must be one of: cash, check, credit_card/);
    expect(reason(11)).toMatch(/^electionYear is required when electionType is sent/);
    expect(reason(13)).toMatch(/status refunded cannot be imported/);
    expect(reason(14)).toMatch(/Contact cnt_nope was not found/);
    expect(reason(15)).toMatch(/donationAmount must be a whole number of cents/);

    // What the API shows afterwards: exactly the three good gifts, as sent.
    const list = await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`);
    expect(list.body.total).toBe(3);
    expect(list.body.donations.map((d: { donationAmount: number }) => d.donationAmount).sort()).toEqual(
      [1250, 50, 75.5].sort(),
    );
    const gift2 = list.body.donations.find((d: { donationAmount: number }) => d.donationAmount === 50);
    const detail = await s.request('GET', `/api/v1/donations/${gift2.id}?accountId=${s.accountId}`);
    expect(detail.body).toMatchObject({
      paymentMethod: 'credit_card',
      isAnonymous: true,
      notes: '  ref #123  ',
      donationDate: '2025-03-02T18:30:00.000Z',
      status: 'completed',
    });
  });

  it('rejects a gift dated outside 1900-2200 (HQ would refuse it) with its row number, and takes the edges', async () => {
    const c = org.campaignId;
    const file = csvFile([
      HEADER,
      ['y1', 'L-1', '', '19.99', '9026-03-01', 'cash', c, '', '', '', '', '', '', ''], // row 2: a typo for 2026
      ['y2', 'L-1', '', '19.99', '0026-03-01', 'cash', c, '', '', '', '', '', '', ''], // row 3
      ['y3', 'L-1', '', '19.99', '1900-01-01', 'cash', c, '', '', '', '', '', '', ''], // row 4: the first day taken
      ['y4', 'L-2', '', '19.99', '2200-12-31T23:30:00-01:00', 'cash', c, '', '', '', '', '', '', ''], // row 5: 2201 in UTC
    ]);
    const r = await importFile(s, file, { kind: 'donations' });
    expect(r.imported).toBe(1);
    expect(r.rejected.map((x) => x.row)).toEqual([2, 3, 5]);
    for (const x of r.rejected) expect(x.reason).toMatch(/^donationDate must be a date from 1900 to 2200/);
  });

  it('keeps donor totals, last gift dates and the account counts right', async () => {
    const file = csvFile([
      HEADER,
      ['a', 'L-1', '', '100', '2025-01-10', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      ['b', 'L-1', '', '250.25', '2025-06-01', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      ['c', 'L-1', '', '10', '2024-12-31', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      ['d', 'L-2', '', '5', '2025-02-02', 'cash', org.campaignId, '', '', '', '', '', '', ''],
    ]);
    await s.request('POST', '/api/v1/donations', {
      accountId: s.accountId,
      contactId: await contactIdOf(s, 'L-1'),
      donationAmount: 1,
      donationDate: '2025-03-01',
      paymentMethod: 'cash',
      campaignId: org.campaignId,
    });
    const r = await importFile(s, file, { kind: 'donations', chunkRows: 2 }); // several chunks
    expect(r).toMatchObject({ imported: 4, rejectedCount: 0 });
    const zoe = await s.request(
      'GET',
      `/api/v1/contacts/${await contactIdOf(s, 'L-1')}?accountId=${s.accountId}`,
    );
    expect(zoe.body.totalDonations).toBe(361.25);
    expect(zoe.body.lastDonationDate).toBe('2025-06-01T00:00:00.000Z');
    const jose = await s.request(
      'GET',
      `/api/v1/contacts/${await contactIdOf(s, 'L-2')}?accountId=${s.accountId}`,
    );
    expect(jose.body.totalDonations).toBe(5);
    const account = await s.request('GET', `/api/v1/account?accountId=${s.accountId}`);
    expect(account.body).toMatchObject({ contacts: 3, donations: 5 });
    const campaign = await s.request('GET', `/api/v1/campaigns/${org.campaignId}?accountId=${s.accountId}`);
    expect(campaign.body).toMatchObject({ totalRaised: 366.25, donationCount: 5 });
  });

  it('twin gifts on either side of a chunk boundary are both imported; a bad row mid-chunk is reported on its own line; totals count exactly the saved gifts', async () => {
    // Three namesakes, told apart only by their references.
    const browns = csvFile([
      ['externalId', 'firstName', 'lastName', 'primaryEmail'],
      ['R-1', 'Robert', 'Brown', 'rbrown@example.org'],
      ['R-2', 'Robert', 'Brown', 'rbrown@example.org'],
      ['R-3', 'Robert', 'Brown', ''],
    ]);
    expect(await importFile(s, browns, { kind: 'contacts' })).toMatchObject({
      imported: 3,
      rejectedCount: 0,
    });
    const c = org.campaignId;
    const at = '2025-11-20T18:05:00Z';
    const row = (ref: string, amount: string, method = 'cash') => [
      '',
      ref,
      '',
      amount,
      at,
      method,
      c,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ];
    const file = csvFile([
      HEADER,
      row('L-1', '5'), // row 2: chunk 1
      row('R-9', '19.99'), // row 3: chunk 1, middle: no such donor
      row('L-1', '19.99'), // row 4: chunk 1, last: a twin ...
      row('L-1', '19.99'), // row 5: chunk 2, first: ... and its twin
      row('R-2', '19.99'), // row 6: chunk 2: twins within one chunk
      row('R-2', '19.99'), // row 7
      row('R-1', '100', 'check'), // row 8: chunk 3
      row('R-3', '-19.99'), // row 9: chunk 3, middle: D1
      row('R-3', '7.5'), // row 10
      row('L-2', '19.99'), // row 11: chunk 4, alone
    ]);
    const r = await importFile(s, file, { kind: 'donations', chunkRows: 3 });
    expect(r.imported).toBe(8);
    expect(r.rejected).toEqual([
      { row: 3, reason: 'contactExternalId R-9 matches no contact in this account' },
      { row: 9, reason: expect.stringMatching(/^donationAmount must be greater than zero/) },
    ]);
    const total = async (ref: string) =>
      (await s.request('GET', `/api/v1/contacts/${await contactIdOf(s, ref)}?accountId=${s.accountId}`)).body
        .totalDonations as number;
    expect(await total('L-1')).toBe(44.98);
    expect(await total('L-2')).toBe(19.99);
    expect(await total('R-1')).toBe(100);
    expect(await total('R-2')).toBe(39.98);
    expect(await total('R-3')).toBe(7.5);
    const list = await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`);
    expect(list.body.total).toBe(8);
    expect(
      list.body.donations.filter((d: { donationAmount: number }) => d.donationAmount === 19.99),
    ).toHaveLength(5);
    const account = await s.request('GET', `/api/v1/account?accountId=${s.accountId}`);
    expect(account.body).toMatchObject({ contacts: 6, donations: 8 });
    const campaign = await s.request('GET', `/api/v1/campaigns/${c}?accountId=${s.accountId}`);
    expect(campaign.body).toMatchObject({ totalRaised: 212.45, donationCount: 8 });
  });

  it.skipIf(TEST_ENGINE === 'postgres')(
    "the CLI's totals, moved at the end (SQLite): a gift voided and a twin posted mid-import count once each",
    async () => {
      const zoeId = await contactIdOf(s, 'L-1');
      // twin gifts (same donor, $19.99 cash, same minute) in two chunks, and a namesake's gift
      const file = csvFile([
        HEADER,
        gift('t1', 'L-1', '19.99', '2025-04-05T10:15:00Z'),
        gift('t2', 'L-1', '19.99', '2025-04-05T10:15:00Z'),
        gift('t3', 'L-1', '100', '2025-05-01', 'check'),
        gift('t4', 'L-2', '5', '2025-05-02'),
      ]);
      const file2 = new BetterSqlite3(s.ctx.store.location, { readonly: true });
      const writes: Array<Promise<unknown>> = [];
      const seen: number[] = [];
      const r = await importFile(s, file, {
        kind: 'donations',
        chunkRows: 1,
        deferTotals: true,
        onProgress: (p) => {
          seen.push(p.imported);
          if (p.imported !== 1) return;
          // After the first chunk (t1 saved, its total pending): the volunteer voids t1, typed
          // twice by mistake, and enters a gift over the API; both queue before the next chunk.
          const t1 = file2.prepare("select id from donations where external_id = 't1'").get() as {
            id: string;
          };
          writes.push(voidDonation(s.ctx, s.accountId, t1.id, 'typed twice'));
          writes.push(
            s.request('POST', '/api/v1/donations', {
              accountId: s.accountId,
              contactId: zoeId,
              donationAmount: 7,
              donationDate: '2025-01-02',
              paymentMethod: 'cash',
              campaignId: org.campaignId,
            }),
          );
        },
      });
      await Promise.all(writes);
      file2.close();
      expect(r).toMatchObject({ imported: 4, rejectedCount: 0 });
      expect(seen).toEqual([1, 2, 3, 4]);
      const zoe = await s.request('GET', `/api/v1/contacts/${zoeId}?accountId=${s.accountId}`);
      expect(zoe.body.totalDonations).toBe(126.99); // t2 + t3 + the API's $7; t1 voided
      expect(zoe.body.lastDonationDate).toBe('2025-05-01T00:00:00.000Z');
      const jose = await s.request(
        'GET',
        `/api/v1/contacts/${await contactIdOf(s, 'L-2')}?accountId=${s.accountId}`,
      );
      expect(jose.body.totalDonations).toBe(5);
    },
  );

  it('a donor deleted between two chunks: its later gift is rejected, naming the donor, and the rest count', async () => {
    const joseId = await contactIdOf(s, 'L-2');
    const file = csvFile([
      HEADER,
      gift('d1', 'L-2', '40', '2025-04-05'),
      gift('d2', 'L-1', '19.99', '2025-04-05T10:15:00Z'),
      gift('d3', 'L-2', '60', '2025-04-06'),
      gift('d4', 'L-1', '19.99', '2025-04-05T10:15:00Z'),
    ]);
    const writes: Array<Promise<unknown>> = [];
    const r = await importFile(s, file, {
      kind: 'donations',
      chunkRows: 2,
      deferTotals: true,
      onProgress: (p) => {
        // after the first chunk (José's d1 saved): José is deleted, his gifts with him
        if (p.imported === 2) writes.push(deleteContact(s.ctx, s.accountId, joseId));
      },
    });
    await Promise.all(writes);
    expect(r).toMatchObject({ imported: 3, rejectedCount: 1 });
    expect(r.rejected).toEqual([
      { row: 4, reason: expect.stringMatching(/contactExternalId L-2 matches no contact/) },
    ]);
    const zoe = await s.request(
      'GET',
      `/api/v1/contacts/${await contactIdOf(s, 'L-1')}?accountId=${s.accountId}`,
    );
    expect(zoe.body.totalDonations).toBe(39.98); // the twins, both
    const account = await s.request('GET', `/api/v1/account?accountId=${s.accountId}`);
    expect(account.body).toMatchObject({ contacts: 2, donations: 2 });
  });

  it('a second run of the same file adds nothing: rows with an externalId already imported are skipped', async () => {
    const file = csvFile([
      HEADER,
      ['x1', 'L-1', '', '100', '2025-01-10', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      ['x2', 'L-2', '', '200', '2025-01-11', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      ['x3', 'L-2', '', '-5', '2025-01-11', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      ['x1', 'L-3', '', '999', '2025-01-12', 'cash', org.campaignId, '', '', '', '', '', '', ''], // the same reference again
    ]);
    const first = await importFile(s, file, { kind: 'donations' });
    expect(first).toMatchObject({ imported: 2, skipped: 1, rejectedCount: 1 });
    const second = await importFile(s, file, { kind: 'donations' });
    expect(second).toMatchObject({ imported: 0, skipped: 3, rejectedCount: 1 });
    expect(second.rejected).toEqual([
      { row: 4, reason: expect.stringMatching(/donationAmount must be greater than zero/) },
    ]);
    const list = await s.request('GET', `/api/v1/donations?accountId=${s.accountId}`);
    expect(list.body.total).toBe(2);
    const zoe = await s.request(
      'GET',
      `/api/v1/contacts/${await contactIdOf(s, 'L-1')}?accountId=${s.accountId}`,
    );
    expect(zoe.body.totalDonations).toBe(100);
  });

  it('--no-push writes outbox rows that are not pushed; the default queues every gift for HQ', async () => {
    const rows = (prefix: string) => [
      HEADER,
      [`${prefix}1`, 'L-1', '', '100', '2025-01-10', 'cash', org.campaignId, '', '', '', '', '', '', ''],
      [`${prefix}2`, 'L-2', '', '200', '2025-01-11', 'cash', org.campaignId, '', '', '', '', '', '', ''],
    ];
    await importFile(s, csvFile(rows('old')), { kind: 'donations', push: false });
    await importFile(s, csvFile(rows('new')), { kind: 'donations' });
    const outbox = await s.store.db
      .selectFrom('changeLog as l')
      .innerJoin('donations as d', 'd.id', 'l.entityId')
      .select(['d.externalId', 'l.push', 'l.op'])
      .where('l.entityType', '=', 'donation')
      .orderBy('d.externalId')
      .execute();
    expect(outbox).toEqual([
      { externalId: 'new1', push: 1, op: 'create' },
      { externalId: 'new2', push: 1, op: 'create' },
      { externalId: 'old1', push: 0, op: 'create' },
      { externalId: 'old2', push: 0, op: 'create' },
    ]);
  });

  it('finds donors by contactExternalId, or by their own id (as an export of this database names them)', async () => {
    const zoe = await contactIdOf(s, 'L-1');
    const file = csvFile([
      [
        'contactExternalId',
        'donationAmount',
        'donationDate',
        'paymentMethod',
        'campaignId',
        'onBehalfOfContactExternalId',
      ],
      ['L-1', '10', '2025-01-10', 'cash', org.campaignId, 'L-2'],
      [zoe, '20', '2025-01-11', 'cash', org.campaignId, ''],
      ['L-2', '30', '2025-01-12', 'cash', org.campaignId, 'L-404'],
    ]);
    const r = await importFile(s, file, { kind: 'donations' });
    expect(r.imported).toBe(2);
    expect(r.rejected).toEqual([
      { row: 4, reason: 'onBehalfOfContactExternalId L-404 matches no contact in this account' },
    ]);
    const gifts = await s.store.db
      .selectFrom('donations')
      .select(['contactId', 'amountCents', 'onBehalfOfContactId'])
      .orderBy('amountCents')
      .execute();
    expect(gifts).toEqual([
      { contactId: zoe, amountCents: 1000, onBehalfOfContactId: await contactIdOf(s, 'L-2') },
      { contactId: zoe, amountCents: 2000, onBehalfOfContactId: null },
    ]);
  });

  it('flags gifts over a contribution limit, counting earlier gifts in the file and those already saved (D6)', async () => {
    const zoe = await contactIdOf(s, 'L-1');
    // Already saved through the API: $2,000 toward the 2026 general.
    const saved = await s.request('POST', '/api/v1/donations', {
      accountId: s.accountId,
      contactId: zoe,
      donationAmount: 2000,
      donationDate: '2025-05-01',
      paymentMethod: 'check',
      donationAccountId: org.federalId,
      electionType: 'general',
      electionYear: 2026,
    });
    expect(saved.status).toBe(201);
    const file = csvFile([
      [
        'externalId',
        'contactExternalId',
        'donationAmount',
        'donationDate',
        'paymentMethod',
        'donationAccountId',
        'electionType',
        'electionYear',
      ],
      ['f1', 'L-1', '1000', '2025-06-01', 'check', org.federalId, 'general', '2026'], // 3,000: within
      ['f2', 'L-1', '500', '2025-06-02', 'check', org.federalId, 'general', '2026'], // 3,500: over
      ['f3', 'L-1', '3000', '2025-06-03', 'check', org.federalId, 'primary', '2026'], // another election: within
      ['f4', 'L-2', '3300', '2025-06-04', 'check', org.federalId, 'general', '2026'], // exactly the limit: within
      ['f5', 'L-2', '0.01', '2025-06-05', 'check', org.federalId, 'general', '2026'], // a cent over
      ['f6', 'L-3', '5000', '2025-06-06', 'check', org.federalId, 'general', '2026'], // over at once
    ]);
    const r = await importFile(s, file, { kind: 'donations', chunkRows: 4 }); // the window spans two chunks
    expect(r).toMatchObject({ imported: 6, rejectedCount: 0 });
    const flags = await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`);
    const seen = flags.body.flagged.map(
      (f: {
        contactName: string;
        donationAmount: number;
        limitKind: string;
        window: string;
        limit: number;
        donorTotal: number;
      }) => [f.contactName, f.donationAmount, f.limitKind, f.window, f.limit, f.donorTotal],
    );
    expect(seen.sort()).toEqual(
      [
        ['Zoë Núñez', 500, 'per_election', 'general-2026', 3300, 3500],
        ['José García', 0.01, 'per_election', 'general-2026', 3300, 3300.01],
        ["Siobhán O'Brien", 5000, 'per_election', 'general-2026', 3300, 5000],
      ].sort(),
    );
  });

  it('refuses a file with unknown or missing columns before reading any row, naming them', async () => {
    const file = csvFile([
      ['contactExternalId', 'amount', 'donationDate', 'paymentMethod', 'campaign'],
      ['L-1', '10', '2025-01-10', 'cash', org.campaignId],
    ]);
    await expect(importFile(s, file, { kind: 'donations' })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_columns',
      message: expect.stringMatching(/unknown columns "amount", "campaign".*missing column donationAmount/),
    });
    const list = await s.request('GET', `/api/v1/donations?accountId=${s.accountId}`);
    expect(list.body.total).toBe(0);
  });

  it('reports a row it cannot read as CSV and goes on with the rest', async () => {
    const file = csvFile([
      ['contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
    ]);
    const fs = await import('node:fs');
    fs.appendFileSync(
      file,
      `L-1,10,2025-01-10,cash,${org.campaignId}\r\nL-1,"20"x,2025-01-11,cash,${org.campaignId}\r\n\r\nL-2,"3\r\n0",2025-01-12,cash,${org.campaignId}\r\nL-2,40,2025-01-13,cash,${org.campaignId},extra\r\nL-2,50,2025-01-14,cash,${org.campaignId}\r\n`,
    );
    const r = await importFile(s, file, { kind: 'donations' });
    expect(r.imported).toBe(2);
    expect(r.rejected).toEqual([
      { row: 3, reason: 'the row cannot be read: line 3: a quoted cell has text after its closing quote' },
      { row: 5, reason: expect.stringMatching(/^donationAmount must be a number/) },
      { row: 7, reason: 'has 6 cells but the header has 5 columns' },
    ]);
  });
});
