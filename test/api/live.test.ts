/**
 * GET /live: how an open window learns that someone else wrote (the hub's Review when a
 * station sends a gift, a screen left open across a restart). A window's own writes do not
 * move its count, so a burst typed there reads nothing more; another key's writes do; a refused
 * write does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../electron/domain/accounts/index.ts';
import { expectStatus, makeContact, makeDonation, makeDonationAccount } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let other: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer();
  const k = await createApiKey(s.ctx, s.accountId, 'another window');
  other = { 'x-api-key': k.keyId, authorization: `Bearer ${k.secret}` };
});
afterAll(async () => {
  await s?.close();
});

const live = async (headers?: Record<string, string>) => {
  const r = await s.request('GET', '/api/v1/live', undefined, headers);
  expectStatus(r, 200);
  return r.body as { instance: string; version: number };
};

describe('GET /live', () => {
  it('moves for the other window when one writes, not for the writer itself', async () => {
    const mine0 = await live();
    const theirs0 = await live(other);
    expect(mine0.instance).toBe(theirs0.instance);
    // Two identical $19.99 cash gifts from one donor, typed in this window.
    const c = await makeContact(s, { firstName: 'Robert', lastName: 'Brown' });
    const a = await makeDonationAccount(s);
    for (let i = 0; i < 2; i++)
      await makeDonation(s, c.id, { donationAmount: 19.99, paymentMethod: 'cash', donationAccountId: a.id });
    expect((await live()).version).toBe(mine0.version);
    expect((await live(other)).version).toBe(theirs0.version + 4);
    // The other window edits the donor: this window's count moves.
    expectStatus(await s.request('PUT', `/api/v1/contacts/${c.id}`, { lastName: 'Brown Jr' }, other), 200);
    expect((await live()).version).toBe(mine0.version + 1);
  });

  it('does not move for a refused write', async () => {
    const before = await live(other);
    const bad = await s.request('POST', '/api/v1/donations', {
      accountId: s.accountId,
      donationAmount: 'lots',
    });
    expect(bad.status).toBe(400);
    expect((await live(other)).version).toBe(before.version);
  });

  it('asks for a key like every route', async () => {
    const r = await fetch(`${s.url}/api/v1/live`);
    expect(r.status).toBe(401);
  });
});
