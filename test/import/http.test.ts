/**
 * The HTTP face of import and export: POST a CSV file, follow the background import to
 * done, read its rejected rows; a file the import would refuse is a 400 at once; exports
 * stream CSV in the columns the import reads.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { csvLine } from '../../electron/domain/import-export/csv-reader.ts';
import { type TestServer, rawRequest, startTestServer } from '../helpers/server.ts';
import { type Org, csvFile, importFile, makeOrg } from './fixtures.ts';

let s: TestServer;
let org: Org;

beforeEach(async () => {
  s = await startTestServer();
  org = await makeOrg(s);
});
afterEach(async () => {
  await s.close();
});

const csv = (rows: Array<Array<string | number>>) => rows.map((r) => csvLine(r)).join('');

async function untilFinished(id: string): Promise<Record<string, unknown>> {
  // Until it finishes, however long a loaded machine takes (the test's timeout bounds it).
  for (;;) {
    const r = await s.request('GET', `/api/v1/imports/${id}?accountId=${s.accountId}`);
    expect(r.status).toBe(200);
    if (r.body.status !== 'running') return r.body as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /api/v1/imports', () => {
  it('answers 202 with the job, runs it in the background to done, and lists the rejected rows', async () => {
    const contacts = [['externalId', 'firstName', 'lastName']];
    for (let i = 0; i < 1500; i++) contacts.push([`c${i}`, `First${i}`, `Last${i}`]);
    const gifts: Array<Array<string | number>> = [
      ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
    ];
    for (let i = 0; i < 3000; i++)
      gifts.push([
        `g${i}`,
        `c${i % 1500}`,
        i === 10 ? '-1' : `${(i % 90) + 10}.00`,
        '2025-04-01',
        'check',
        org.campaignId,
      ]);
    gifts.push(['g-x', 'c-unknown', '10', '2025-04-01', 'check', org.campaignId]);

    const first = await s.request(
      'POST',
      `/api/v1/imports?accountId=${s.accountId}&kind=contacts&push=false`,
      csv(contacts),
      { 'content-type': 'text/csv' },
    );
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      kind: 'contacts',
      status: 'running',
      push: false,
      totalRows: 1500,
      processedRows: 0,
    });
    expect(await untilFinished(first.body.id)).toMatchObject({
      status: 'done',
      totalRows: 1500,
      processedRows: 1500,
      imported: 1500,
      rejectedCount: 0,
      skipped: 0,
      error: null,
      finishedAt: expect.any(String),
    });

    const r = await s.request('POST', `/api/v1/imports?accountId=${s.accountId}&kind=donations`, csv(gifts), {
      'content-type': 'text/csv; charset=utf-8',
    });
    expect(r.status).toBe(202);
    expect(r.body.totalRows).toBe(3001);
    // the server keeps answering while the import runs
    const meanwhile = await s.request('GET', `/api/v1/account?accountId=${s.accountId}`);
    expect(meanwhile.status).toBe(200);
    const done = await untilFinished(r.body.id);
    expect(done).toMatchObject({
      status: 'done',
      push: true,
      totalRows: 3001,
      processedRows: 3001,
      imported: 2999,
      rejectedCount: 2,
      skipped: 0,
    });

    const rejected = await s.request(
      'GET',
      `/api/v1/imports/${r.body.id}/rejected.csv?accountId=${s.accountId}`,
    );
    expect(rejected.status).toBe(200);
    expect(rejected.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(rejected.text).toBe(
      'row,reason\r\n12,"donationAmount must be greater than zero (got ""-1"")"\r\n3002,contactExternalId c-unknown matches no contact in this account\r\n',
    );

    const account = await s.request('GET', `/api/v1/account?accountId=${s.accountId}`);
    expect(account.body).toMatchObject({ contacts: 1500, donations: 2999 });

    // the same file again: every row is recognised
    const again = await s.request(
      'POST',
      `/api/v1/imports?accountId=${s.accountId}&kind=donations`,
      csv(gifts),
      { 'content-type': 'text/csv' },
    );
    expect(await untilFinished(again.body.id)).toMatchObject({
      status: 'done',
      imported: 0,
      skipped: 2999,
      rejectedCount: 2,
    });
  });

  it('refuses at once (400, no job) a file with unknown columns, an empty body, or the wrong media type', async () => {
    const bad = await s.request(
      'POST',
      `/api/v1/imports?accountId=${s.accountId}&kind=donations`,
      'who,donationAmount\nx,1\n',
      { 'content-type': 'text/csv' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'invalid_columns',
      message: expect.stringMatching(/unknown column "who"/),
    });
    const empty = await s.request('POST', `/api/v1/imports?accountId=${s.accountId}&kind=contacts`, '', {
      'content-type': 'text/csv',
    });
    expect(empty.status).toBe(400);
    const json = await s.request('POST', `/api/v1/imports?accountId=${s.accountId}&kind=contacts`, {
      firstName: 'x',
    });
    expect(json.status).toBe(415);
    const kind = await s.request(
      'POST',
      `/api/v1/imports?accountId=${s.accountId}&kind=people`,
      'firstName,lastName\n',
      { 'content-type': 'text/csv' },
    );
    expect(kind.status).toBe(400);
    expect(kind.body.details).toEqual([{ field: 'kind', issue: 'must be one of: contacts, donations' }]);
    expect(await s.store.db.selectFrom('imports').select('id').execute()).toEqual([]);
    // CSV stays a 415 on the JSON routes
    const elsewhere = await s.request('POST', '/api/v1/contacts', 'firstName,lastName\n', {
      'content-type': 'text/csv',
    });
    expect(elsewhere.status).toBe(415);
  });

  it('asks before the same file goes in twice when its rows have no externalId: 409 naming the file, nothing added; again=true adds it again', async () => {
    // Two Robert Browns and Łukasz Żółć, from a spreadsheet with no reference column.
    const people = csv([
      ['firstName', 'lastName', 'primaryEmail'],
      ['Robert', 'Brown', 'rb1@example.org'],
      ['Robert', 'Brown', 'rb2@example.org'],
      ['Łukasz', 'Żółć', 'lz@example.org'],
    ]);
    const post = (body: string, query = '') =>
      s.request('POST', `/api/v1/imports?accountId=${s.accountId}&kind=contacts${query}`, body, {
        'content-type': 'text/csv',
      });
    const browns = async () =>
      (await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=robert%20brown`)).body
        .total as number;
    const first = await post(people);
    expect(first.status).toBe(202);
    expect(await untilFinished(first.body.id as string)).toMatchObject({ status: 'done', imported: 3 });
    expect(await browns()).toBe(2);
    // The same bytes again (chosen again by mistake, or sent again after a lost answer).
    const again = await post(people);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'imported_before' });
    // When, in UTC and said so, and as an instant for a client to show in its own time zone.
    const startedAt = (
      await s.request('GET', `/api/v1/imports/${first.body.id as string}?accountId=${s.accountId}`)
    ).body.createdAt as string;
    expect(again.body.message).toContain(
      `was imported on ${startedAt.slice(0, 10)} at ${startedAt.slice(11, 16)} UTC (3 rows added)`,
    );
    expect(again.body.importedBefore).toEqual({ at: startedAt, running: false, rowsAdded: 3 });
    expect(again.body.details).toEqual([{ field: '(body)', issue: expect.stringContaining('again=true') }]);
    expect(await browns()).toBe(2);
    // Another file is another import; the same one with again=true goes in again.
    const other = await post(
      csv([
        ['firstName', 'lastName', 'primaryEmail'],
        ['Robert', 'Brown', 'rb3@example.org'],
      ]),
    );
    expect(other.status).toBe(202);
    await untilFinished(other.body.id as string);
    expect(await browns()).toBe(3);
    const forced = await post(people, '&again=true');
    expect(forced.status).toBe(202);
    await untilFinished(forced.body.id as string);
    expect(await browns()).toBe(5);
    // A file whose rows carry an externalId is never asked: a re-run adds nothing twice.
    const keyed = csv([
      ['externalId', 'firstName', 'lastName'],
      ['x1', 'Renée', 'Dubois'],
    ]);
    for (let i = 0; i < 2; i++) {
      const r = await post(keyed);
      expect(r.status).toBe(202);
      await untilFinished(r.body.id as string);
    }
    const renee = await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=renee%20dubois`);
    expect(renee.body.total).toBe(1);
  });

  it("keeps imports to the key's account: another account's id is 403, another account's job 404", async () => {
    const other = await s.otherAccount();
    const r = await s.request(
      'POST',
      `/api/v1/imports?accountId=${other.accountId}&kind=contacts`,
      'firstName,lastName\nA,B\n',
      { 'content-type': 'text/csv' },
    );
    expect(r.status).toBe(403);
    const mine = await s.request(
      'POST',
      `/api/v1/imports?accountId=${s.accountId}&kind=contacts`,
      'firstName,lastName\nA,B\n',
      { 'content-type': 'text/csv' },
    );
    await untilFinished(mine.body.id);
    const theirs = await rawRequest(
      `${s.url}/api/v1/imports/${mine.body.id}?accountId=${other.accountId}`,
      'GET',
      undefined,
      { 'x-api-key': other.keyId, authorization: `Bearer ${other.secret}` },
    );
    expect(theirs.status).toBe(404);
    const unknown = await s.request('GET', `/api/v1/imports/imp_nope?accountId=${s.accountId}`);
    expect(unknown.status).toBe(404);
  });
});

describe('GET /api/v1/exports/…csv', () => {
  it('streams the donations in the columns the import reads', async () => {
    await importFile(
      s,
      csvFile([
        ['externalId', 'firstName', 'lastName'],
        ['d1', 'Zoë', 'Núñez'],
      ]),
      { kind: 'contacts' },
    );
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
          'donationAccountId',
          'electionType',
          'electionYear',
          'notes',
        ],
        [
          'x2',
          'd1',
          '1250',
          '2025-05-02',
          'check',
          org.campaignId,
          org.federalId,
          'general',
          '2026',
          'line one\nline "two"',
        ],
        ['x1', 'd1', '0.5', '2025-05-01T10:00:00Z', 'cash', org.campaignId, '', '', '', ''],
      ]),
      { kind: 'donations' },
    );
    const r = await s.request('GET', `/api/v1/exports/donations.csv?accountId=${s.accountId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = r.text.split('\r\n');
    expect(lines[0]).toBe(
      'externalId,contactExternalId,donationAmount,donationDate,paymentMethod,campaignId,committeeId,donationAccountId,electionType,electionYear,notes,onBehalfOfContactExternalId,facilitatedByContactExternalId,isAnonymous,isRecurring,thankYouSent,thankYouSentDate,status',
    );
    expect(lines[1]).toBe(
      `x1,d1,0.50,2025-05-01T10:00:00.000Z,cash,${org.campaignId},,,general,2026,,,,false,false,false,,completed`,
    );
    expect(lines[2]).toBe(
      `x2,d1,1250.00,2025-05-02T00:00:00.000Z,check,${org.campaignId},,${org.federalId},general,2026,"line one\nline ""two""",,,false,false,false,,completed`,
    );
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
    const forbidden = await s.request(
      'GET',
      `/api/v1/exports/contacts.csv?accountId=${(await s.otherAccount()).accountId}`,
    );
    expect(forbidden.status).toBe(403);
  });
});
