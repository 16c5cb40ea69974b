/**
 * GiftDesk's sync references (`gd:cnt_…` tags, a `gd:don_…` last line in a gift's notes) are
 * its own bookkeeping: the organisation's CSV exports leave them out, and keep everything a
 * person wrote (the API still carries them, for the sync).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, makeContact, makeDonation, makeDonationAccount } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('CSV exports and sync references', () => {
  it('leave out the gd: tags and reference lines, and keep what people wrote', async () => {
    const c = await makeContact(s, {
      firstName: 'Łukasz',
      lastName: 'Żółć',
      tags: ['VIP', 'gd:cnt_01STATIONA'],
    });
    const a = await makeDonationAccount(s);
    const gift = await makeDonation(s, c.id, {
      donationAccountId: a.id,
      donationAmount: 19.99,
      paymentMethod: 'cash',
      notes: 'Paid at the door, see gd:don_OTHER\ngd:don_01STATIONA',
    });
    // The API carries them (the sync reads them there).
    const stored = expectStatus(
      await s.request('GET', `/api/v1/donations/${gift.id}?accountId=${s.accountId}`),
      200,
    );
    expect(stored.notes).toContain('gd:don_01STATIONA');

    const contacts = await s.request('GET', `/api/v1/exports/contacts.csv?accountId=${s.accountId}`);
    expect(contacts.status).toBe(200);
    expect(contacts.text).toContain('Żółć');
    expect(contacts.text).toContain('VIP');
    expect(contacts.text).not.toContain('gd:cnt_');

    const gifts = await s.request('GET', `/api/v1/exports/donations.csv?accountId=${s.accountId}`);
    expect(gifts.status).toBe(200);
    // A mention inside the text is what the person wrote; the last line is the sync's.
    expect(gifts.text).toContain('Paid at the door, see gd:don_OTHER');
    expect(gifts.text).not.toContain('gd:don_01STATIONA');
  });
});
