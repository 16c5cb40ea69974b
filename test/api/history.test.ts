/**
 * Who did what: a gift records who entered it (the person signed in, else the key), and every
 * later change — a correction, a void, a thank-you mark, a flag's refund — is an entry of its
 * history written with the change, saying who, when, which fields, before and after, and the
 * reason given; a donor's edits the same (GET /contacts/{id}/history). A volunteer corrects and
 * sees only their own gifts and batches. People sign in over real HTTP; messy data: twin $19.99
 * cash gifts of one Robert Brown among three, "Łukasz Żółć" typed "lukasz zolc".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../electron/domain/accounts/index.ts';
import {
  expectError,
  expectStatus,
  expectUnchanged,
  makeCampaign,
  makeContact,
  snapshot,
} from '../helpers/api-fixtures.ts';
import { type ApiResponse, rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const PASSWORD = 'correct horse battery';
type Session = { keyId: string; secret: string };
let vera: Session;
let tess: Session;
let otto: Session;
let campaignId: string;
const roberts: string[] = [];

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

const q = () => `accountId=${s.accountId}`;
const history = async (who: Session, id: string) =>
  expectStatus(await as(who, 'GET', `/api/v1/donations/${id}/history?${q()}`), 200);

async function giftIn(who: Session, batchId: string, contactId: string, amount = 19.99): Promise<string> {
  const saved = expectStatus(
    await as(who, 'POST', `/api/v1/batches/${batchId}/donations`, {
      accountId: s.accountId,
      contactId,
      campaignId,
      donationAmount: amount,
      donationDate: '2026-12-01',
      paymentMethod: 'cash',
    }),
    201,
  );
  return saved.donation.id as string;
}

async function batch(who: Session, name: string): Promise<string> {
  return expectStatus(await as(who, 'POST', '/api/v1/batches', { accountId: s.accountId, name }), 201)
    .id as string;
}

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s)).id;
  for (let i = 0; i < 3; i++)
    roberts.push(
      (await makeContact(s, { firstName: 'Robert', lastName: 'Brown', primaryEmail: `rb${i}@example.org` }))
        .id,
    );
  vera = await signIn('vera@example.org', 'Vera Volunteer', 'volunteer');
  otto = await signIn('otto@example.org', 'Otto Other', 'volunteer');
  tess = await signIn('tess@example.org', 'Tess Treasurer', 'treasurer');
});
afterAll(async () => {
  await s?.close();
});

describe('a gift records who entered it, and its history who changed it', () => {
  it('twin $19.99 cash gifts: each entered by the volunteer; the treasurer’s correction and void name the treasurer, the fields, before and after, and the reason', async () => {
    const b = await batch(vera, 'Front table');
    const one = await giftIn(vera, b, roberts[0]!);
    const two = await giftIn(vera, b, roberts[0]!);
    for (const id of [one, two]) {
      const h = await history(tess, id);
      expect(h.entered.by).toMatchObject({
        name: 'Vera Volunteer',
        label: 'Vera Volunteer',
        stationId: null,
      });
      expect(h.entered.by.userId).toEqual(expect.any(String));
      expect(h.data).toEqual([]);
    }

    expectStatus(
      await as(tess, 'PATCH', `/api/v1/donations/${two}`, { accountId: s.accountId, donationAmount: 9.99 }),
      200,
    );
    expectStatus(
      await as(tess, 'POST', `/api/v1/donations/${one}/void`, {
        accountId: s.accountId,
        reason: 'typed twice',
      }),
      200,
    );
    const corrected = await history(vera, two);
    expect(corrected.entered.by.name).toBe('Vera Volunteer');
    expect(corrected.data).toHaveLength(1);
    expect(corrected.data[0]).toMatchObject({
      action: 'corrected',
      by: { name: 'Tess Treasurer', label: 'Tess Treasurer' },
      fields: ['donationAmount'],
      changes: [{ field: 'donationAmount', before: 19.99, after: 9.99 }],
    });
    const voided = await history(tess, one);
    expect(voided.data).toHaveLength(1);
    expect(voided.data[0]).toMatchObject({
      action: 'voided',
      note: 'typed twice',
      by: { name: 'Tess Treasurer' },
    });
    // The twin nobody touched says so.
    expect((await history(tess, two)).data.map((e: { action: string }) => e.action)).toEqual(['corrected']);
  });

  it('a refused correction writes no history (the entry is in the change’s transaction)', async () => {
    const b = await batch(vera, 'Second table');
    const id = await giftIn(vera, b, roberts[1]!);
    const before = await snapshot(s, { contacts: [roberts[1]!] });
    expectError(
      await as(tess, 'PATCH', `/api/v1/donations/${id}`, {
        accountId: s.accountId,
        contactId: 'cnt_01NOSUCHDONOR0000000000000',
      }),
      404,
      { field: 'contactId' },
    );
    await expectUnchanged(s, before);
    expect((await history(tess, id)).data).toEqual([]);
  });

  it('a thank-you mark and a key with no person: the key is named', async () => {
    const id = expectStatus(
      await s.request('POST', '/api/v1/donations', {
        accountId: s.accountId,
        contactId: roberts[2]!,
        campaignId,
        donationAmount: 19.99,
        donationDate: '2026-12-01',
        paymentMethod: 'cash',
      }),
      201,
    ).id as string;
    const h0 = await history(tess, id);
    expect(h0.entered.by).toMatchObject({
      userId: null,
      keyId: s.keyId,
      name: null,
      label: `API key ${s.keyId}`,
    });
    expectStatus(
      await as(tess, 'POST', '/api/v1/donations/thank-you', {
        accountId: s.accountId,
        donations: [{ id, thankYouSentDate: '2026-12-02' }],
      }),
      200,
    );
    const h = await history(tess, id);
    expect(h.data).toHaveLength(1);
    expect(h.data[0]).toMatchObject({
      action: 'thanked',
      by: { name: 'Tess Treasurer' },
      fields: ['thankYouSent', 'thankYouSentDate'],
    });
    expect(h.data[0].changes[0]).toEqual({ field: 'thankYouSent', before: false, after: true });
  });

  it('a batch’s count says whose session saved it', async () => {
    const b = await batch(vera, 'Cash box');
    await giftIn(vera, b, roberts[0]!, 25);
    const summary = expectStatus(
      await as(tess, 'POST', `/api/v1/batches/${b}/count`, {
        accountId: s.accountId,
        countedBy: 'Tess and Vera',
        counted: [{ paymentMethod: 'cash', total: 25 }],
      }),
      200,
    );
    expect(summary.lastCount).toMatchObject({ countedBy: 'Tess and Vera', savedBy: 'Tess Treasurer' });
  });
});

describe("a donor's history", () => {
  it('says who added the donor and who changed which field from what to what', async () => {
    const created = expectStatus(
      await as(vera, 'POST', '/api/v1/contacts', {
        accountId: s.accountId,
        firstName: 'lukasz',
        lastName: 'zolc',
      }),
      201,
    );
    expectStatus(
      await as(tess, 'PUT', `/api/v1/contacts/${created.id}`, {
        accountId: s.accountId,
        firstName: 'Łukasz',
        lastName: 'Żółć',
      }),
      200,
    );
    const h = expectStatus(await as(tess, 'GET', `/api/v1/contacts/${created.id}/history?${q()}`), 200);
    expect(h.data.map((e: { action: string }) => e.action)).toEqual(['created', 'edited']);
    expect(h.data[0].by).toMatchObject({ name: 'Vera Volunteer' });
    expect(h.data[1]).toMatchObject({
      by: { name: 'Tess Treasurer' },
      fields: ['firstName', 'lastName'],
      changes: [
        { field: 'firstName', before: 'lukasz', after: 'Łukasz' },
        { field: 'lastName', before: 'zolc', after: 'Żółć' },
      ],
    });
  });

  it('is a 404 for a donor the account does not have and a 400 without the account', async () => {
    expectError(await as(tess, 'GET', `/api/v1/contacts/cnt_01NOSUCH0000000000000000/history?${q()}`), 404);
    expectError(await as(tess, 'GET', `/api/v1/contacts/${roberts[0]}/history`), 400, { field: 'accountId' });
  });
});

describe("a volunteer's own", () => {
  it('corrects only their own gifts, reads only their own, and lists only their own batches', async () => {
    const mine = await batch(vera, 'Vera’s table');
    const theirs = await batch(otto, 'Otto’s table');
    const own = await giftIn(vera, mine, roberts[0]!);
    const other = await giftIn(otto, theirs, roberts[0]!);
    expectStatus(
      await as(vera, 'PATCH', `/api/v1/donations/${own}`, { accountId: s.accountId, donationAmount: 20 }),
      200,
    );
    const before = await snapshot(s, { contacts: [roberts[0]!] });
    expectError(
      await as(vera, 'PATCH', `/api/v1/donations/${other}`, { accountId: s.accountId, donationAmount: 1 }),
      403,
      { code: 'not_own_record', field: 'id' },
    );
    expectError(await as(vera, 'POST', `/api/v1/donations/${other}/void`, { accountId: s.accountId }), 403, {
      code: 'not_own_record',
    });
    expectError(await as(vera, 'GET', `/api/v1/batches/${theirs}/deposit?${q()}`), 403, {
      code: 'role_forbidden',
    });
    expectError(
      await as(vera, 'POST', `/api/v1/batches/${theirs}/donations`, {
        accountId: s.accountId,
        contactId: roberts[0]!,
        campaignId,
        donationAmount: 5,
        donationDate: '2026-12-01',
        paymentMethod: 'cash',
      }),
      403,
      { code: 'not_own_record' },
    );
    await expectUnchanged(s, before);
    expectError(await as(vera, 'GET', `/api/v1/donations/${other}/history?${q()}`), 403, {
      code: 'not_own_record',
    });
    expectError(await as(vera, 'GET', `/api/v1/batches/${theirs}?${q()}`), 403, { code: 'not_own_record' });
    // A made-up id is still the route's 404, not a 403.
    expectError(await as(vera, 'GET', `/api/v1/donations/don_01NOSUCH000000000000000000?${q()}`), 404);

    const listed = expectStatus(await as(vera, 'GET', `/api/v1/batches?${q()}&limit=100`), 200);
    const names = listed.data.map((b: { name: string }) => b.name);
    expect(names).toContain('Vera’s table');
    expect(names).not.toContain('Otto’s table');
    expect(listed.total).toBe(listed.data.length);
    // A treasurer corrects anyone's gift and sees every batch.
    expectStatus(
      await as(tess, 'PATCH', `/api/v1/donations/${other}`, { accountId: s.accountId, donationAmount: 18 }),
      200,
    );
    const all = expectStatus(await as(tess, 'GET', `/api/v1/batches?${q()}&limit=100`), 200);
    expect(all.data.map((b: { name: string }) => b.name)).toEqual(
      expect.arrayContaining(['Vera’s table', 'Otto’s table']),
    );
  });
});
