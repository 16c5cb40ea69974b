/**
 * Export → import into an empty account carries a gift's soft credit, host and sustainer
 * flag: onBehalfOfContactId, facilitatedByContactId and isRecurring come out of the second
 * account as they left the first (the contacts they name found again by the export's
 * references).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCampaign, makeContact, makeDonation } from '../helpers/api-fixtures.ts';
import { type TestServer, startTestServer, tempDir } from '../helpers/server.ts';
import { importFile } from './fixtures.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function exported(s: TestServer, kind: 'contacts' | 'donations'): Promise<string> {
  const r = await s.request('GET', `/api/v1/exports/${kind}.csv?accountId=${s.accountId}`);
  expect(r.status).toBe(200);
  return r.text;
}

function saveAs(text: string, name: string): string {
  const file = path.join(tempDir('giftdesk-export-'), name);
  fs.writeFileSync(file, text);
  return file;
}

interface Gift {
  contactId: string;
  donationAmount: number;
  onBehalfOfContactId: string | null;
  facilitatedByContactId: string | null;
  isRecurring: boolean;
}

/** Each gift's three fields, the contacts named by name (ids differ between accounts). */
async function giftsByName(s: TestServer): Promise<string[]> {
  const contacts = (await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&limit=100`)).body
    .data as Array<{ id: string; firstName: string; lastName: string }>;
  const name = (id: string | null) => {
    const c = contacts.find((x) => x.id === id);
    return id === null ? '-' : c ? `${c.firstName} ${c.lastName}` : `unknown ${id}`;
  };
  const list = (await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`)).body
    .donations as Array<{ id: string }>;
  const out: string[] = [];
  for (const d of list) {
    const g = (await s.request('GET', `/api/v1/donations/${d.id}?accountId=${s.accountId}`)).body as Gift;
    out.push(
      [
        name(g.contactId),
        g.donationAmount,
        `for ${name(g.onBehalfOfContactId)}`,
        `by ${name(g.facilitatedByContactId)}`,
        g.isRecurring ? 'sustainer' : 'once',
      ].join(' | '),
    );
  }
  return out.sort();
}

describe('export → import into an empty account', () => {
  it('keeps onBehalfOfContactId, facilitatedByContactId and isRecurring', async () => {
    const a = await startTestServer();
    servers.push(a);
    const campaignA = (await makeCampaign(a, 'Gala')).id;
    const harold = await makeContact(a, { firstName: 'Harold', lastName: 'Reyes' });
    const maria = await makeContact(a, { firstName: 'Maria', lastName: 'Reyes' });
    const hana = await makeContact(a, { firstName: 'Hana', lastName: 'Host' });
    const ann = await makeContact(a, { firstName: 'Ann', lastName: 'Guest', externalId: 'legacy-ann' });
    const gift = { campaignId: campaignA };
    await makeDonation(a, harold.id, { ...gift, donationAmount: 500, onBehalfOfContactId: maria.id });
    await makeDonation(a, ann.id, { ...gift, donationAmount: 100, facilitatedByContactId: hana.id });
    await makeDonation(a, maria.id, {
      ...gift,
      donationAmount: 25,
      isRecurring: true,
      onBehalfOfContactId: ann.id,
      facilitatedByContactId: hana.id,
    });
    await makeDonation(a, hana.id, { ...gift, donationAmount: 10 });
    const want = await giftsByName(a);
    expect(want).toContain('Harold Reyes | 500 | for Maria Reyes | by - | once');
    expect(want).toContain('Maria Reyes | 25 | for Ann Guest | by Hana Host | sustainer');

    const b = await startTestServer();
    servers.push(b);
    const campaignB = (await makeCampaign(b, 'Gala')).id;
    expect(
      await importFile(b, saveAs(await exported(a, 'contacts'), 'contacts.csv'), { kind: 'contacts' }),
    ).toMatchObject({ imported: 4, rejectedCount: 0 });
    // The campaign is the second account's own (reference data is not in the export).
    const donations = (await exported(a, 'donations')).split(campaignA).join(campaignB);
    expect(await importFile(b, saveAs(donations, 'donations.csv'), { kind: 'donations' })).toMatchObject({
      imported: 4,
      rejectedCount: 0,
    });
    expect(await giftsByName(b)).toEqual(want);
  });
});
