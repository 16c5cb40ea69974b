/**
 * GET /api/v1/contacts: sorting (createdAt desc by default; firstName, lastName, email,
 * createdAt, asc or desc), search by word and word prefix across name, email and
 * organization (case- and accent-insensitive), totals and paging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asNewAccount, expectRejected, expectStatus, makeContact } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Item {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

let s: TestServer;
/** Created in this order (so createdAt ascending is this order). */
const people = [
  { firstName: 'Zoë', lastName: 'Quist', primaryEmail: 'zq@quist.example', organization: 'Quist Foundation' },
  {
    firstName: 'José',
    lastName: 'Álvarez',
    primaryEmail: 'jose.alvarez@example.org',
    organization: 'Casa Grande',
  },
  { firstName: 'amy', lastName: 'baker', primaryEmail: 'amy@bakery.example', organization: 'Baker & Sons' },
  { firstName: 'Brian', lastName: 'Adams', primaryEmail: 'brian@adams.example', organization: null },
  {
    firstName: 'Chloe',
    lastName: 'Zimmer',
    primaryEmail: 'chloe@zimmer.example',
    organization: 'Northwind Traders',
  },
  {
    firstName: 'Dmitri',
    lastName: 'Mendeleev',
    primaryEmail: 'dm@periodic.example',
    organization: 'Periodic Table Society',
  },
];
const ids: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  for (const p of people) ids[p.firstName] = (await makeContact(s, p)).id;
});
afterAll(async () => {
  await s?.close();
});

const list = async (query = '', t: TestServer = s) =>
  expectStatus(await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}${query}`), 200);
const names = (page: { data: Item[] }) => page.data.map((d) => d.firstName);
const search = async (text: string) => names(await list(`&search=${encodeURIComponent(text)}`)).sort();

describe('sorting', () => {
  it('defaults to createdAt, newest first', async () => {
    const page = await list();
    expect(names(page)).toEqual(people.map((p) => p.firstName).reverse());
    expect(page).toMatchObject({ total: 6, limit: 20, offset: 0 });
    expect(Object.keys(page).sort()).toEqual(['data', 'limit', 'offset', 'total']);
  });

  it.each([
    ['createdAt', 'asc', ['Zoë', 'José', 'amy', 'Brian', 'Chloe', 'Dmitri']],
    ['firstName', 'asc', ['amy', 'Brian', 'Chloe', 'Dmitri', 'José', 'Zoë']],
    ['firstName', 'desc', ['Zoë', 'José', 'Dmitri', 'Chloe', 'Brian', 'amy']],
    ['lastName', 'asc', ['Brian', 'amy', 'Dmitri', 'Zoë', 'Chloe']],
    ['email', 'asc', ['amy', 'Brian', 'Chloe', 'Dmitri', 'José', 'Zoë']],
    ['email', 'desc', ['Zoë', 'José', 'Dmitri', 'Chloe', 'Brian', 'amy']],
  ])('sortBy=%s sortOrder=%s, case-insensitively', async (sortBy, sortOrder, expected) => {
    const got = names(await list(`&sortBy=${sortBy}&sortOrder=${sortOrder}`));
    // Where "Álvarez" falls differs by engine (SQLite's nocase folds ASCII only, PostgreSQL's
    // ICU collation folds accents): the others' order is checked on both.
    expect(sortBy === 'lastName' ? got.filter((n) => n !== 'José') : got).toEqual(expected);
  });

  it('sortBy alone sorts descending (the default order)', async () => {
    expect(names(await list('&sortBy=firstName'))).toEqual([
      'Zoë',
      'José',
      'Dmitri',
      'Chloe',
      'Brian',
      'amy',
    ]);
    expect(names(await list('&sortOrder=asc'))).toEqual(people.map((p) => p.firstName));
  });

  it.each([
    ['sortBy', 'sortBy=phone'],
    ['sortBy', 'sortBy=created_at'],
    ['sortBy', 'sortBy='],
    ['sortOrder', 'sortOrder=up'],
    ['sortOrder', 'sortOrder=DESC'],
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['limit', 'limit=x'],
    ['offset', 'offset=-5'],
  ])('refuses a bad %s (%s) → 400 naming it', async (field, q) => {
    await expectRejected(s, () => s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&${q}`), 400, {
      code: 'validation_failed',
      field,
    });
  });
});

describe('sorting by email when some contacts have none', () => {
  it('puts contacts without an email first ascending and last descending, on every engine', async () => {
    const t = await asNewAccount(s);
    for (const [firstName, primaryEmail] of [
      ['Bea', 'b@x.example'],
      ['Nomail', undefined],
      ['Al', 'a@x.example'],
    ] as const) {
      await makeContact(t, { firstName, lastName: 'Sort', ...(primaryEmail ? { primaryEmail } : {}) });
    }
    expect(names(await list('&sortBy=email&sortOrder=asc', t))).toEqual(['Nomail', 'Al', 'Bea']);
    expect(names(await list('&sortBy=email&sortOrder=desc', t))).toEqual(['Bea', 'Al', 'Nomail']);
  });
});

describe('search', () => {
  it.each([
    ['zoe', ['Zoë']],
    ['ZOË', ['Zoë']],
    ['JOS', ['José']],
    ['alvarez', ['José']],
    ['álv', ['José']],
    ['bak', ['amy']], // last name and organization prefix
    ['sons', ['amy']], // a word of the organization
    ['northwind', ['Chloe']],
    ['periodic', ['Dmitri']], // organization and email domain
    ['bakery', ['amy']], // a word of the email
    ['adams', ['Brian']],
    ['brian adams', ['Brian']], // every word must match
    ['brian zimmer', []],
    ['chloe@zimmer.example', ['Chloe']],
    ['ian', []], // words match from their start, not inside
    ['q', ['Zoë']],
  ])('%j finds %j', async (text, expected) => {
    expect(await search(text)).toEqual([...expected].sort());
  });

  it('counts every match in total, while the page holds at most limit', async () => {
    const t = await asNewAccount(s);
    for (let i = 0; i < 7; i++)
      await makeContact(t, {
        firstName: `Pat${i}`,
        lastName: 'Smithson',
        organization: i % 2 ? 'Smith Co' : null,
      });
    await makeContact(t, { firstName: 'Other', lastName: 'Person' });
    const page = await list('&search=smith&limit=3', t);
    expect(page).toMatchObject({ total: 7, limit: 3, offset: 0 });
    expect(page.data).toHaveLength(3);
    const last = await list('&search=smith&limit=3&offset=6', t);
    expect(last.data).toHaveLength(1);
    expect(last.total).toBe(7);
    expect((await list('', t)).total).toBe(8);
  });

  it("follows a change of name or email, and never finds another account's contacts", async () => {
    const t = await asNewAccount(s);
    const c = await makeContact(t, { firstName: 'Renamed', lastName: 'Later' });
    expectStatus(
      await t.request('PUT', `/api/v1/contacts/${c.id}`, {
        lastName: 'Okonkwo',
        primaryEmail: 'chi@okonkwo.example',
      }),
      200,
    );
    expect(names(await list('&search=okonk', t))).toEqual(['Renamed']);
    expect(names(await list('&search=later', t))).toEqual([]);
    expect(names(await list('&search=zoe', t))).toEqual([]);
  });
});

describe('paging', () => {
  it('walks all contacts in steps of the limit, each once', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const page = await list(`&limit=4&offset=${offset}&sortBy=lastName&sortOrder=asc`);
      expect(page.total).toBe(6);
      seen.push(...page.data.map((d: Item) => d.id));
      if (page.data.length < 4) break;
    }
    expect([...seen].sort()).toEqual(Object.values(ids).sort());
  });

  it('list items show email from the primary email and carry only the list fields', async () => {
    const page = await list('&search=mendeleev');
    expect(page.data).toEqual([
      {
        id: ids.Dmitri,
        firstName: 'Dmitri',
        lastName: 'Mendeleev',
        email: 'dm@periodic.example',
        phone: null,
        organization: 'Periodic Table Society',
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      },
    ]);
  });
});
