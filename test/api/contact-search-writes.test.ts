/**
 * Every write keeps contact search right, on both search routes and in both orders: a
 * contact created one by one or by CSV import, renamed, or deleted is found by exactly its
 * current words, once, however many of its words start with what was typed; accents typed
 * without them; a namesake in another account never counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../electron/domain/import-export/csv-reader.ts';
import { asNewAccount, expectStatus, makeContact } from '../helpers/api-fixtures.ts';
import { expectedOrder, seedContacts } from '../helpers/seed-contacts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Page {
  data: { id: string; firstName: string; lastName: string }[];
  total: number;
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const VARIANTS = [
  ['/api/v1/contacts', ''],
  ['/api/v1/contacts', '&sortBy=relevance'],
  ['/api/v1/contact-summaries', ''],
  ['/api/v1/contact-summaries', '&sortBy=name'],
] as const;

/** The total and the contacts found ("First Last", sorted); every route and order agrees. */
async function found(t: TestServer, text: string): Promise<{ total: number; names: string[] }> {
  const pages = await Promise.all(
    VARIANTS.map(
      async ([route, extra]) =>
        expectStatus(
          await t.request(
            'GET',
            `${route}?accountId=${t.accountId}&search=${encodeURIComponent(text)}&limit=100${extra}`,
          ),
          200,
        ) as Page,
    ),
  );
  const results = pages.map((p) => ({
    total: p.total,
    names: p.data.map((d) => `${d.firstName} ${d.lastName}`).sort(),
  }));
  for (const [i, r] of results.entries())
    expect(r, `“${text}” on ${VARIANTS[i]!.join('')}`).toEqual(results[0]);
  return results[0]!;
}

async function importContacts(t: TestServer, rows: string[][]): Promise<void> {
  const body = rows.map((r) => csvLine(r)).join('');
  const job = expectStatus(
    await t.request('POST', `/api/v1/imports?accountId=${t.accountId}&kind=contacts`, body, {
      'content-type': 'text/csv',
    }),
    202,
  );
  // Until it finishes, however long a loaded machine takes (the test's timeout bounds it).
  for (;;) {
    const now = expectStatus(
      await t.request('GET', `/api/v1/imports/${job.id}?accountId=${t.accountId}`),
      200,
    );
    if (now.status !== 'running') {
      expect(now).toMatchObject({ status: 'done', imported: rows.length - 1, rejectedCount: 0 });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('search after writes', () => {
  it('finds a contact once however many of its words start with the typed text, and follows renames that reorder its words', async () => {
    const t = await asNewAccount(s);
    // Four words starting "jan", two starting "anna", emails that repeat the name.
    await makeContact(t, {
      firstName: 'Jan',
      lastName: 'Janssen',
      primaryEmail: 'jan.janssen@janco.example',
      organization: 'Janco',
    });
    await makeContact(t, {
      firstName: 'Anna',
      lastName: 'Annabel',
      organization: 'Annex Works',
      primaryEmail: 'anna@annex.example',
    });
    // Namesakes: three Robert Browns, one of them sharing the other's email.
    await makeContact(t, { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'rb@example.org' });
    await makeContact(t, { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'rb@example.org' });
    await makeContact(t, { firstName: 'Robert', lastName: 'Brown', organization: 'Brownstone Bakery' });
    // The same words in another account, which must never count.
    const other = await asNewAccount(s);
    await makeContact(other, { firstName: 'Jan', lastName: 'Janssen', organization: 'Janco' });
    await makeContact(other, { firstName: 'Anna', lastName: 'Annabel' });

    expect(await found(t, 'jan')).toEqual({ total: 1, names: ['Jan Janssen'] });
    expect(await found(t, 'j')).toEqual({ total: 1, names: ['Jan Janssen'] });
    expect(await found(t, 'jans')).toEqual({ total: 1, names: ['Jan Janssen'] });
    expect(await found(t, 'jan jan')).toEqual({ total: 1, names: ['Jan Janssen'] });
    expect(await found(t, 'janco jan')).toEqual({ total: 1, names: ['Jan Janssen'] });
    expect(await found(t, 'ann')).toEqual({ total: 1, names: ['Anna Annabel'] });
    expect(await found(t, 'annab')).toEqual({ total: 1, names: ['Anna Annabel'] });
    expect(await found(t, 'anne')).toEqual({ total: 1, names: ['Anna Annabel'] });
    expect(await found(t, 'a')).toEqual({ total: 1, names: ['Anna Annabel'] });
    expect(await found(t, 'robert brown')).toEqual({
      total: 3,
      names: ['Robert Brown', 'Robert Brown', 'Robert Brown'],
    });
    expect(await found(t, 'brown')).toEqual({
      total: 3,
      names: ['Robert Brown', 'Robert Brown', 'Robert Brown'],
    });
    expect((await found(t, 'b')).total).toBe(3);
    expect(await found(other, 'jan')).toEqual({ total: 1, names: ['Jan Janssen'] });

    // The first name goes: the words that followed it in order now come first.
    const anna = (
      expectStatus(
        await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&search=annabel`),
        200,
      ) as Page
    ).data[0]!;
    expectStatus(
      await t.request('PUT', `/api/v1/contacts/${anna.id}`, {
        firstName: 'Bea',
        primaryEmail: 'bea@annex.example',
      }),
      200,
    );
    expect(await found(t, 'anna')).toEqual({ total: 1, names: ['Bea Annabel'] });
    expect(await found(t, 'ann')).toEqual({ total: 1, names: ['Bea Annabel'] });
    expect(await found(t, 'annex bea')).toEqual({ total: 1, names: ['Bea Annabel'] });
    expect(await found(t, 'anna anna')).toEqual({ total: 1, names: ['Bea Annabel'] });
    // Anna back, as a word of the organisation this time; the old first name's words are gone.
    expectStatus(await t.request('PUT', `/api/v1/contacts/${anna.id}`, { organization: 'Anna Trust' }), 200);
    expect(await found(t, 'annex')).toEqual({ total: 1, names: ['Bea Annabel'] }); // still in the email
    expect(await found(t, 'works')).toEqual({ total: 0, names: [] });
    expect(await found(t, 'ann')).toEqual({ total: 1, names: ['Bea Annabel'] });

    const jan = (
      expectStatus(
        await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&search=janssen`),
        200,
      ) as Page
    ).data[0]!;
    expectStatus(await t.request('DELETE', `/api/v1/contacts/${jan.id}?accountId=${t.accountId}`), 200);
    for (const text of ['jan', 'j', 'janssen', 'janco'])
      expect(await found(t, text), text).toEqual({ total: 0, names: [] });
    expect(await found(other, 'jan')).toEqual({ total: 1, names: ['Jan Janssen'] });
  });

  it('finds imported contacts by their words with accents typed or not, and renamed ones by their new name only', async () => {
    const t = await asNewAccount(s);
    await importContacts(t, [
      ['externalId', 'firstName', 'lastName', 'primaryEmail', 'organization'],
      ['e1', 'Zoë', 'Núñez', 'zoe.nunez@example.org', ''],
      ['e2', 'Zoe', 'Nunez', 'zoe.nunez@example.org', ''], // typed without accents at another table
      ['e3', 'José', 'Müller-Ödegaard', '', 'Çà Va Café'],
      ['e4', 'Siobhán', 'O’Brien', 'siobhan@example.ie', ''],
      ['e5', 'Sören', 'Nuñez', '', 'Nunez Nunez & Sons'],
    ]);
    expect(await found(t, 'zoe nunez')).toEqual({ total: 2, names: ['Zoe Nunez', 'Zoë Núñez'] });
    expect(await found(t, 'ZOË NÚÑ')).toEqual({ total: 2, names: ['Zoe Nunez', 'Zoë Núñez'] });
    expect(await found(t, 'nun')).toEqual({
      total: 3,
      names: ['Sören Nuñez', 'Zoe Nunez', 'Zoë Núñez'].sort(),
    });
    expect(await found(t, 'muller odeg')).toEqual({ total: 1, names: ['José Müller-Ödegaard'] });
    expect(await found(t, 'cafe')).toEqual({ total: 1, names: ['José Müller-Ödegaard'] });
    expect(await found(t, 'siobhan o brien')).toEqual({ total: 1, names: ['Siobhán O’Brien'] });

    const soren = (
      expectStatus(
        await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&search=soren`),
        200,
      ) as Page
    ).data[0]!;
    expectStatus(
      await t.request('PUT', `/api/v1/contacts/${soren.id}`, { lastName: 'Ödegård', organization: null }),
      200,
    );
    expect(await found(t, 'nun')).toEqual({ total: 2, names: ['Zoe Nunez', 'Zoë Núñez'] });
    expect(await found(t, 'odeg')).toEqual({ total: 2, names: ['José Müller-Ödegaard', 'Sören Ödegård'] });
    expect(await found(t, 'sons')).toEqual({ total: 0, names: [] });
  });

  it("pages a word thousands of contacts share (the page read off an order's index) in order, with the right total, this account only", async () => {
    // More than 10,000 contacts with the words "mail" and "example" (their emails): on
    // PostgreSQL a page of so broad a match probes each walked entry's words instead of
    // hashing the whole match set first; a second account has the same words.
    const big = await startTestServer();
    try {
      const seeded = await seedContacts(big.store, big.accountId, 12_500, { seed: 11 });
      const other = await asNewAccount(big);
      for (let i = 0; i < 3; i++)
        await makeContact(other, { firstName: `Other${i}`, primaryEmail: `other${i}@mail.example` });
      const withEmail = seeded.filter((c) => c.email !== null);
      expect(withEmail.length).toBeGreaterThan(10_000);
      const get = async (route: string, text: string, extra: string) =>
        expectStatus(
          await big.request('GET', `${route}?accountId=${big.accountId}&search=${text}${extra}`),
          200,
        ) as Page;
      for (const text of ['mail', 'mai', 'examp']) {
        const newest = expectedOrder(withEmail, 'createdAt', 'desc')
          .slice(0, 20)
          .map((c) => c.id);
        const spec = await get('/api/v1/contacts', text, '&limit=20');
        expect(spec.total, text).toBe(withEmail.length);
        expect(
          spec.data.map((d) => d.id),
          text,
        ).toEqual(newest);
        // By relevance: "mail" is a whole word of every match (one tier), "mai" and "examp" start
        // one (one tier too); the most recent last gift first, never gave last.
        const recent = expectedOrder(withEmail, 'lastDonationDate', 'desc');
        for (const [route, limit] of [
          ['/api/v1/contacts', 20],
          ['/api/v1/contact-summaries', 8],
        ] as const) {
          const first = await get(route, text, `&limit=${limit}&sortBy=relevance`);
          expect(first.total, `${route} ${text}`).toBe(withEmail.length);
          expect(
            first.data.map((d) => d.id),
            `${route} ${text}`,
          ).toEqual(recent.slice(0, limit).map((c) => c.id));
          const later = await get(route, text, `&limit=${limit}&offset=5000&sortBy=relevance`);
          expect(
            later.data.map((d) => d.id),
            `${route} ${text} offset 5000`,
          ).toEqual(recent.slice(5000, 5000 + limit).map((c) => c.id));
        }
      }
      expect((await found(other, 'mail')).total).toBe(3);
    } finally {
      await big.close();
    }
  });
});
