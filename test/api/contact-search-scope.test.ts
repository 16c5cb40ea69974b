/**
 * Contact search stays within its account and follows every change, on both routes that
 * search (GET /contacts and GET /contact-summaries), for narrow and broad matches alike (a
 * broad match's page is read off an order index, a narrow one's off the match: both are
 * covered), and for a file with one account as well as several (SQLite counts a lone
 * account's matches without its account token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asNewAccount, expectStatus, makeContact } from '../helpers/api-fixtures.ts';
import { seedContacts } from '../helpers/seed-contacts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Page {
  data: { id: string; firstName: string }[];
  total: number;
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const ROUTES = ['/api/v1/contacts', '/api/v1/contact-summaries'] as const;

async function find(t: TestServer, route: (typeof ROUTES)[number], text: string, extra = ''): Promise<Page> {
  return expectStatus(
    await t.request('GET', `${route}?accountId=${t.accountId}&search=${encodeURIComponent(text)}${extra}`),
    200,
  ) as Page;
}

/** Both routes agree: the same total and the same set of contacts (first names, sorted). */
async function found(t: TestServer, text: string): Promise<{ total: number; names: string[] }> {
  const results = await Promise.all(ROUTES.map((r) => find(t, r, text, '&limit=100')));
  const [a, b] = results.map((p) => ({ total: p.total, names: p.data.map((d) => d.firstName).sort() }));
  expect(b, `${text}: /contact-summaries agrees with /contacts`).toEqual(a);
  return a!;
}

describe('search scope', () => {
  it("never counts or returns another account's contacts, broad or narrow, with one account or several", async () => {
    // One account in the file: its matches are every match.
    for (let i = 0; i < 12; i++)
      await makeContact(s, {
        firstName: `Home${i}`,
        lastName: 'Quartermaine',
        organization: 'Shared Words Ltd',
      });
    await makeContact(s, { firstName: 'Lone', lastName: 'Zebulon' });
    expect(await found(s, 'quarterm')).toEqual({
      total: 12,
      names: Array.from({ length: 12 }, (_, i) => `Home${i}`).sort(),
    });
    expect(await found(s, 'zebulon')).toEqual({ total: 1, names: ['Lone'] });

    // A second account with the same words, more of them than the first has.
    const other = await asNewAccount(s);
    for (let i = 0; i < 20; i++)
      await makeContact(other, {
        firstName: `Away${i}`,
        lastName: 'Quartermaine',
        organization: 'Shared Words Ltd',
      });
    await makeContact(other, { firstName: 'Twin', lastName: 'Zebulon' });

    for (const [t, prefix, n] of [
      [s, 'Home', 12],
      [other, 'Away', 20],
    ] as const) {
      for (const text of ['quarterm', 'QUARTERMAINE shared', 'words ltd', 'q']) {
        const r = await found(t, text);
        expect(r.total, `${prefix} ${text}`).toBe(n);
        expect(r.names, `${prefix} ${text}`).toEqual(
          Array.from({ length: n }, (_, i) => `${prefix}${i}`).sort(),
        );
      }
    }
    expect(await found(s, 'zebulon')).toEqual({ total: 1, names: ['Lone'] });
    expect(await found(other, 'zebulon')).toEqual({ total: 1, names: ['Twin'] });
    // Paging a broad match: each page from this account only, the total the same on every page.
    for (const route of ROUTES) {
      const seen: string[] = [];
      for (let offset = 0; offset < 12; offset += 5) {
        const page = await find(s, route, 'quartermaine', `&limit=5&offset=${offset}`);
        expect(page.total, route).toBe(12);
        seen.push(...page.data.map((d) => d.firstName));
      }
      expect(seen.sort(), route).toEqual(Array.from({ length: 12 }, (_, i) => `Home${i}`).sort());
    }
  });

  it("is never fooled by words that look like an account's own id", async () => {
    const t = await asNewAccount(s);
    await makeContact(t, { firstName: 'Idly', lastName: 'Named' });
    const hex = Buffer.from(t.accountId, 'utf8').toString('hex');
    // Digits and a–f: the start of the account's hex form, and the account id's own words.
    for (const text of [
      hex.slice(0, 2),
      hex.slice(0, 6),
      hex,
      t.accountId,
      ...t.accountId.split(/[^A-Za-z0-9]+/),
      // With a word of the contact's own, which alone would find it.
      `idly ${hex.slice(0, 6)}`,
      `${hex} named`,
    ]) {
      expect(await found(t, text), text).toEqual({ total: 0, names: [] });
    }
  });

  it('follows renames and deletions: the old words find nothing, the new ones find the contact, the total drops', async () => {
    const t = await asNewAccount(s);
    await makeContact(t, { firstName: 'Kept', lastName: 'Oldworth', primaryEmail: 'kept@oldworth.example' });
    const renamed = await makeContact(t, {
      firstName: 'Moved',
      lastName: 'Oldworth',
      organization: 'Oldworth Trust',
    });
    const gone = await makeContact(t, { firstName: 'Gone', lastName: 'Oldworth' });
    expect(await found(t, 'oldworth')).toEqual({ total: 3, names: ['Gone', 'Kept', 'Moved'] });

    expectStatus(
      await t.request('PUT', `/api/v1/contacts/${renamed.id}`, {
        lastName: 'Newbury',
        organization: 'Newbury Fund',
      }),
      200,
    );
    expect(await found(t, 'oldworth')).toEqual({ total: 2, names: ['Gone', 'Kept'] });
    expect(await found(t, 'newbury fund')).toEqual({ total: 1, names: ['Moved'] });

    expectStatus(await t.request('DELETE', `/api/v1/contacts/${gone.id}?accountId=${t.accountId}`), 200);
    expect(await found(t, 'oldworth')).toEqual({ total: 1, names: ['Kept'] });
    expect(await found(t, 'gone')).toEqual({ total: 0, names: [] });

    // A new contact takes the deleted one's words: found once, not twice.
    await makeContact(t, { firstName: 'Gone', lastName: 'Oldworth' });
    expect(await found(t, 'gone oldworth')).toEqual({ total: 1, names: ['Gone'] });
    expect((await found(t, 'kept')).total).toBe(1);
  });

  it("counts a large account's matches exactly beside small accounts with the same words (SQLite: the matches outside theirs)", async () => {
    const big = await startTestServer();
    try {
      const seeded = await seedContacts(big.store, big.accountId, 600, { seed: 7 });
      const small = await asNewAccount(big);
      for (const first of ['Ada', 'Ben', 'Cora'])
        await makeContact(small, {
          firstName: first,
          lastName: 'Quenneville',
          organization: 'Acme Logistics',
        });
      // An exact match the words miss (a phone typed as digits), in both accounts.
      await makeContact(big, {
        firstName: 'Phoebe',
        lastName: 'Dialtone',
        phoneNumbers: [{ phoneNumber: '(555) 010-9999', isPrimary: true }],
      });
      await makeContact(small, {
        firstName: 'Phil',
        lastName: 'Dialtone',
        phoneNumbers: [{ phoneNumber: '(555) 010-9999', isPrimary: true }],
      });
      // A switchboard number a dozen staff of one office share (more exact matches than are
      // probed one by one), two of them in the small account too.
      for (let i = 0; i < 12; i++)
        await makeContact(i < 2 ? small : big, {
          firstName: `Staff${i}`,
          lastName: 'Switchboard',
          phoneNumbers: [{ phoneNumber: '+1 (555) 010-4444', isPrimary: true }],
        });
      for (let i = 0; i < 10; i++)
        await makeContact(big, {
          firstName: `Desk${i}`,
          lastName: 'Switchboard',
          phoneNumbers: [{ phoneNumber: '(555) 010-4444', isPrimary: true }],
        });
      // An organisation's people typed by name: more exact matches than are probed one by one,
      // most also found by the words (Oona Quill), some not (the one-word organisation
      // "OonaQuill": no word of it starts with "quill"), and the words' prefix-only matches
      // besides (Quillfeather). Two of them in the small account too.
      for (let i = 0; i < 9; i++) await makeContact(big, { firstName: 'Oona', lastName: 'Quill' });
      for (let i = 0; i < 3; i++)
        await makeContact(big, { firstName: `Temp${i}`, lastName: 'Agency', organization: 'OonaQuill' });
      for (let i = 0; i < 4; i++) await makeContact(big, { firstName: 'Oona', lastName: 'Quillfeather' });
      await makeContact(small, { firstName: 'Oona', lastName: 'Quill' });
      await makeContact(small, { firstName: 'Temp9', lastName: 'Agency', organization: 'OonaQuill' });
      const expectCount = (pred: (c: (typeof seeded)[number]) => boolean) => seeded.filter(pred).length;
      const cases: Array<[string, number]> = [
        ['quenn', expectCount((c) => c.lastName.toLowerCase().startsWith('quenn'))],
        ['ada quenneville', expectCount((c) => c.firstName === 'Ada' && c.lastName === 'Quenneville')],
        ['acme', expectCount((c) => (c.organization ?? '').startsWith('Acme'))],
        ['5550109999', 1],
        ['555 010 9999', 1],
        ['5550104444', 10],
        ['15550104444', 10],
        ['oona quill', 16],
      ];
      // Relevance counts each tier; an ordinary sort counts the whole match set at once.
      for (const [route, sort] of ROUTES.flatMap((r) =>
        (['relevance', 'createdAt'] as const).map((o) => [r, o] as const),
      )) {
        for (const [text, n] of cases) {
          for (const t of [big, small]) {
            const page = await find(t, route, text, `&limit=100&sortBy=${sort}`);
            const want =
              t === big
                ? n
                : text === 'oona quill'
                  ? 2
                  : text.endsWith('4444')
                    ? text.startsWith('1')
                      ? 2
                      : 0
                    : text.startsWith('555') || text === 'ada quenneville'
                      ? 1
                      : 3;
            expect(page.total, `${route} ${sort} ${t === big ? 'big' : 'small'} “${text}”`).toBe(want);
            expect(page.data.length, `${route} “${text}”`).toBe(Math.min(want, 100));
          }
        }
      }
    } finally {
      await big.close();
    }
  });

  it('finds a one-letter last word as the start of any word, whatever letter follows it, this account only', async () => {
    const t = await asNewAccount(s);
    const other = await asNewAccount(s);
    for (const [firstName, lastName] of [
      ['Fatimah', 'Høyer'],
      ['Fatimah', 'Hansen'],
      ['Fatimah', 'Ólafsdóttir'],
      ['Fatimah', 'Ha'],
      ['Fatimah', 'H'],
      ['Hëlga', 'Fatimah'],
    ] as const)
      await makeContact(t, { firstName, lastName });
    await makeContact(t, { firstName: 'Fatimah', lastName: 'Olsen' });
    await makeContact(other, { firstName: 'Fatimah', lastName: 'Hansen' });
    for (const [text, names] of [
      ['fatimah h', ['Fatimah', 'Fatimah', 'Fatimah', 'Fatimah', 'Hëlga']],
      ['h fatimah', ['Fatimah', 'Fatimah', 'Fatimah', 'Fatimah', 'Hëlga']],
      ['fatimah o', ['Fatimah', 'Fatimah']],
    ] as const) {
      expect(await found(t, text), text).toEqual({ total: names.length, names: [...names] });
    }
  });
});
