/**
 * `giftdesk audit export --from --to`: who did what as CSV, from the command line against the
 * database a running server writes (a child process, real HTTP for the changes): the twin $19.99
 * cash gifts a volunteer entered, the treasurer's correction (amount before and after) and void
 * (with its reason), the donor typed "lukasz zolc" renamed "Łukasz Żółć"; a window before them
 * holds none; a date that is no date is refused naming the option, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../electron/domain/accounts/index.ts';
import { readCsv } from '../../electron/domain/import-export/index.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { isolatedEnv, runCli } from '../helpers/cli.ts';
import { type ApiResponse, rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const env = isolatedEnv().env;
const PASSWORD = 'correct horse battery';
type Session = { keyId: string; secret: string };

const where = (): string[] => (s.databaseUrl ? ['--database-url', s.databaseUrl] : ['--data-dir', s.dataDir]);

function as(who: Session, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return rawRequest(`${s.url}${path}`, method, body, {
    'x-api-key': who.keyId,
    authorization: `Bearer ${who.secret}`,
  });
}

async function signIn(email: string, name: string, role: string): Promise<Session> {
  await addUser(s.ctx, { accountId: s.accountId, email, name, role, password: PASSWORD });
  return expectStatus(
    await rawRequest(`${s.url}/api/v1/sign-in`, 'POST', { email, password: PASSWORD }),
    201,
  ) as Session;
}

async function csvOf(text: string): Promise<Array<Record<string, string>>> {
  const rows: string[][] = [];
  async function* once(): AsyncGenerator<string> {
    yield text;
  }
  for await (const batch of readCsv(once())) for (const r of batch) rows.push(r.cells);
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
}

let giftIds: string[] = [];
let donorId = '';
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  s = await startTestServer();
  const campaign = await makeCampaign(s);
  const robert = await makeContact(s, { firstName: 'Robert', lastName: 'Brown' });
  await makeContact(s, { firstName: 'Robert', lastName: 'Brown' });
  const vera = await signIn('vera@example.org', 'Vera Volunteer', 'volunteer');
  const tess = await signIn('tess@example.org', 'Tess Treasurer', 'treasurer');
  const batch = expectStatus(
    await as(vera, 'POST', '/api/v1/batches', { accountId: s.accountId, name: 'Door' }),
    201,
  );
  giftIds = [];
  for (let i = 0; i < 2; i++)
    giftIds.push(
      expectStatus(
        await as(vera, 'POST', `/api/v1/batches/${batch.id}/donations`, {
          accountId: s.accountId,
          contactId: robert.id,
          campaignId: campaign.id,
          donationAmount: 19.99,
          donationDate: today,
          paymentMethod: 'cash',
        }),
        201,
      ).donation.id as string,
    );
  expectStatus(
    await as(tess, 'PATCH', `/api/v1/donations/${giftIds[1]}`, {
      accountId: s.accountId,
      donationAmount: 9.99,
    }),
    200,
  );
  expectStatus(
    await as(tess, 'POST', `/api/v1/donations/${giftIds[0]}/void`, {
      accountId: s.accountId,
      reason: 'typed twice',
    }),
    200,
  );
  donorId = expectStatus(
    await as(vera, 'POST', '/api/v1/contacts', {
      accountId: s.accountId,
      firstName: 'lukasz',
      lastName: 'zolc',
    }),
    201,
  ).id as string;
  expectStatus(
    await as(tess, 'PUT', `/api/v1/contacts/${donorId}`, {
      accountId: s.accountId,
      firstName: 'Łukasz',
      lastName: 'Żółć',
    }),
    200,
  );
});
afterAll(async () => {
  await s?.close();
});

describe('giftdesk audit export', () => {
  it('lists who entered each gift and who changed what, with before and after and the reason', async () => {
    const r = await runCli(
      ['audit', 'export', ...where(), '--account', s.accountId, '--from', today, '--to', today],
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')[0]).toBe(
      'at,record,recordId,action,who,userId,keyId,station,fields,changes,reason',
    );
    const rows = await csvOf(r.stdout);
    const ofGift = (id: string) => rows.filter((x) => x.recordId === id).map((x) => [x.action, x.who]);
    expect(ofGift(giftIds[0]!)).toEqual([
      ['entered', 'Vera Volunteer'],
      ['voided', 'Tess Treasurer'],
    ]);
    expect(ofGift(giftIds[1]!)).toEqual([
      ['entered', 'Vera Volunteer'],
      ['corrected', 'Tess Treasurer'],
    ]);
    const corrected = rows.find((x) => x.recordId === giftIds[1] && x.action === 'corrected')!;
    expect(corrected).toMatchObject({
      record: 'gift',
      fields: 'donationAmount',
      changes: 'donationAmount: 19.99 → 9.99',
    });
    expect(rows.find((x) => x.recordId === giftIds[0] && x.action === 'voided')!.reason).toBe('typed twice');
    const donor = rows.filter((x) => x.recordId === donorId);
    expect(donor.map((x) => [x.record, x.action, x.who])).toEqual([
      ['donor', 'created', 'Vera Volunteer'],
      ['donor', 'edited', 'Tess Treasurer'],
    ]);
    expect(donor[1]!.changes).toBe('firstName: lukasz → Łukasz; lastName: zolc → Żółć');
    // Oldest first.
    const ats = rows.map((x) => x.at);
    expect([...ats].sort()).toEqual(ats);
  });

  it('a window before it all holds the header alone; a date that is no date is refused naming --from', async () => {
    const before = await runCli(
      ['audit', 'export', ...where(), '--account', s.accountId, '--from', '2020-01-01', '--to', '2020-01-31'],
      env,
    );
    expect(before.status, before.stderr).toBe(0);
    expect(before.stdout).toBe(
      'at,record,recordId,action,who,userId,keyId,station,fields,changes,reason\r\n',
    );
    const bad = await runCli(
      ['audit', 'export', ...where(), '--account', s.accountId, '--from', '2026-02-30', '--to', today],
      env,
    );
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/from/);
    expect(bad.stdout).toBe('');
  });
});
