/**
 * A broad search's page read through a window of the order's index (SQLite: the first entries
 * of the order bound the full-text read by seq; search.ts searchPageIds) returns exactly
 * the page the whole match set gives, whatever the seqs look like: contacts imported late with
 * old dates (high seq, old creation), a second account's namesakes interleaved seq by seq, a
 * word found only among the oldest contacts (the window comes up short and the page is read
 * another way), pages deep into the results, every order of both routes, and relevance in an
 * account where nobody gave yet (its tie-break, newest id first, follows the seqs), and one
 * word by relevance where half gave (relevance.ts: a window sized from the word's density).
 * Expected pages are computed here from what was stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTuning } from '../../electron/domain/contacts/search.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { storeContacts } from '../helpers/seed-contacts.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

interface Stored {
  id: string;
  accountId: string;
  firstName: string;
  lastName: string;
  email: string;
  organization: string | null;
  createdAt: string;
  lastDonationDate: string | null;
  totalCents: number;
}

const FIRST = ['Ada', 'Adaline', 'Ben', 'Bea', 'Cora', 'José', 'Jo', 'Zoë', 'Zoe', 'Robert'];
const LAST = ['Brown', 'Browning', 'Abbott', 'Núñez', 'Nunez', 'Walker', 'Walkerson', 'Hale'];

let s: TestServer;
let other: string;
let quiet: string;
const auth = new Map<string, Record<string, string>>();
const stored: Stored[] = [];

async function add(accountId: string, rows: Array<Omit<Stored, 'id' | 'accountId'>>): Promise<void> {
  const ids = await storeContacts(s.store, accountId, rows);
  rows.forEach((r, i) => stored.push({ id: ids[i]!, accountId, ...r }));
}

/** A contact of the usual kind, number `i`; about half have given, on a day unrelated to `i`. */
function person(i: number, createdAt: string, gave = true): Omit<Stored, 'id' | 'accountId'> {
  const firstName = FIRST[(i * 7) % FIRST.length]!;
  const lastName = LAST[(i * 3) % LAST.length]!;
  const given = gave && i % 2 === 0;
  return {
    firstName,
    lastName,
    email: `${firstName.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()}.${lastName.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()}${i}@mail.example`,
    organization: i % 5 === 0 ? 'Harbor Legal' : null,
    createdAt: new Date(Date.parse(createdAt) + i * 60_000).toISOString(),
    lastDonationDate: given
      ? new Date(Date.parse('2025-01-01T00:00:00Z') + ((i * 7919) % 600) * 86_400_000).toISOString()
      : null,
    totalCents: given ? 1999 : 0,
  };
}

beforeAll(async () => {
  s = await startTestServer();
  auth.set(s.accountId, { 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` });
  for (const _ of [0, 1]) {
    const a = await s.otherAccount();
    auth.set(a.accountId, { 'x-api-key': a.keyId, authorization: `Bearer ${a.secret}` });
    if (other === undefined) other = a.accountId;
    else quiet = a.accountId;
  }
  // The oldest: a word no one else has.
  await add(
    s.accountId,
    Array.from({ length: 120 }, (_, i) => ({ ...person(i, '2019-01-01T00:00:00Z'), lastName: 'Oldfield' })),
  );
  // The bulk, created in seq order, with a second account's namesakes interleaved seq by seq.
  for (let chunk = 0; chunk < 6; chunk++) {
    for (let i = chunk * 500; i < (chunk + 1) * 500; i += 50) {
      await add(
        s.accountId,
        Array.from({ length: 50 }, (_, j) => person(i + j, '2024-01-01T00:00:00Z')),
      );
      await add(
        other,
        Array.from({ length: 10 }, (_, j) => person(i + j, '2024-06-01T00:00:00Z')),
      );
    }
  }
  // Imported late with old dates: high seqs, early in no order by creation.
  await add(
    s.accountId,
    Array.from({ length: 300 }, (_, i) => person(5000 + i, '2023-01-01T00:00:00Z')),
  );
  // An account where nobody gave yet.
  await add(
    quiet,
    Array.from({ length: 2500 }, (_, i) => person(i, '2024-01-01T00:00:00Z', false)),
  );
  // The newest contacts of all: a name dense among them whose holders never gave (last in
  // last-gift order, so a window sized from that density holds none of them), and three whose
  // organisation is the whole of a common name (relevance's exact tier for it).
  await add(
    s.accountId,
    Array.from({ length: 300 }, (_, i) => ({
      ...person(7000 + i, '2022-01-01T00:00:00Z', false),
      lastName: i % 2 === 0 ? 'Quill' : 'Quillan',
    })),
  );
  await add(
    s.accountId,
    Array.from({ length: 3 }, (_, i) => ({
      ...person(8000 + i, '2021-01-01T00:00:00Z'),
      organization: 'Brown',
    })),
  );
  // Emails that start with a whole name run together: one in ten of their holders is that name
  // (relevance's exact tier, and a prefix match of the same word by their email, which the
  // last tier must leave out). A short name: a prefix of more than six letters is read another way.
  await add(
    s.accountId,
    Array.from({ length: 140 }, (_, i) => ({
      ...person(9000 + i, '2021-06-01T00:00:00Z'),
      ...(i % 10 === 9 ? { firstName: 'Jo', lastName: 'Li' } : {}),
      email: `joli${i}@mail.example`,
      // All given lately: first in last-gift order, so the window sized from them holds them.
      lastDonationDate: new Date(Date.parse('2026-09-01T00:00:00Z') + i * 43_200_000).toISOString(),
      totalCents: 1999,
    })),
  );
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const fold = (t: string) =>
  t
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
const words = (t: string) =>
  fold(t)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const tokens = (c: Stored) => words([c.firstName, c.lastName, c.email, c.organization ?? ''].join(' '));
/** In the search's set: every word starts a word of the contact, or the text is its exact key (tier 0). */
const matches = (c: Stored, text: string) =>
  words(text).every((w) => tokens(c).some((t) => t.startsWith(w))) || tier(c, text) === 0;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Relevance's tier: 0 exact (name either order, email, organisation), 1 every word whole, 2 prefix. */
function tier(c: Stored, text: string): number {
  const key = words(text).join('');
  const keys = [c.firstName + c.lastName, c.lastName + c.firstName, c.email, c.organization ?? ''].map((k) =>
    words(k).join(''),
  );
  if (keys.includes(key)) return 0;
  return words(text).every((w) => tokens(c).includes(w)) ? 1 : 2;
}

type Order = (a: Stored, b: Stored) => number;
const desc =
  (f: (c: Stored) => string | number | null, nullsLast = true): Order =>
  (a, b) => {
    const x = f(a);
    const y = f(b);
    if (x === y) return byText(b.id, a.id);
    if (x === null) return nullsLast ? 1 : -1;
    if (y === null) return nullsLast ? -1 : 1;
    return x < y ? 1 : -1;
  };
const asc = (f: (c: Stored) => string | number | null): Order => {
  const d = desc(f, false);
  return (a, b) => d(b, a);
};

async function page(
  accountId: string,
  route: string,
  text: string,
  query: string,
): Promise<{ ids: string[]; total: number | null }> {
  const res = await rawRequest(
    `${s.url}${route}?accountId=${accountId}&search=${encodeURIComponent(text)}&${query}`,
    'GET',
    undefined,
    auth.get(accountId),
  );
  const body = expectStatus(res, 200) as { data: Array<{ id: string }>; total?: number };
  return { ids: body.data.map((d) => d.id), total: body.total ?? null };
}

function expected(
  accountId: string,
  text: string,
  order: Order,
  offset: number,
  limit: number,
): { ids: string[]; total: number } {
  const found = stored.filter((c) => c.accountId === accountId && matches(c, text)).sort(order);
  return { ids: found.slice(offset, offset + limit).map((c) => c.id), total: found.length };
}

/** The route's page (`query`: more parameters, each after an `&`) is the one computed from what was stored. */
async function expectPage(
  accountId: string,
  route: string,
  text: string,
  query: string,
  order: Order,
  [offset, limit]: readonly [number, number],
  label: string,
): Promise<void> {
  expect(await page(accountId, route, text, `limit=${limit}&offset=${offset}${query}`), label).toEqual(
    expected(accountId, text, order, offset, limit),
  );
}

describe('a broad search read through a window of the order', () => {
  const SEARCHES = ['b', 'brown', 'ada', 'mail', 'jo', 'zoe', 'oldf', 'harbor', 'walker', 'nunez'];
  // Orders by creation only here: a text order's collation differs between the engines.
  it('GET /contacts in the spec orders: every page exact, this account only', async () => {
    const orders: Array<[string, Order]> = [
      ['', desc((c) => c.createdAt)],
      ['&sortBy=createdAt&sortOrder=asc', asc((c) => c.createdAt)],
    ];
    for (const text of SEARCHES) {
      for (const [query, order] of orders) {
        for (const [offset, limit] of [
          [0, 20],
          [0, 100],
          [40, 20],
          [900, 50],
        ] as const) {
          await expectPage(
            s.accountId,
            '/api/v1/contacts',
            text,
            query,
            order,
            [offset, limit],
            `${text} ${query} ${offset}`,
          );
        }
      }
    }
  });

  it('GET /contact-summaries in every order of the list: every page exact', async () => {
    const orders: Array<[string, Order]> = [
      ['sortBy=createdAt&sortOrder=desc', desc((c) => c.createdAt)],
      ['sortBy=lastDonationDate&sortOrder=desc', desc((c) => c.lastDonationDate)],
      ['sortBy=totalDonations&sortOrder=asc', asc((c) => c.totalCents)],
    ];
    for (const text of SEARCHES) {
      for (const [query, order] of orders) {
        for (const [offset, limit] of [
          [0, 8],
          [0, 100],
          [300, 100],
        ] as const) {
          await expectPage(
            s.accountId,
            '/api/v1/contact-summaries',
            text,
            `&${query}`,
            order,
            [offset, limit],
            `${text} ${query} ${offset}`,
          );
        }
      }
    }
  });

  it('relevance where nobody gave: tiers first, then the newest id, every page exact', async () => {
    for (const text of ['b', 'brown', 'ada', 'jo', 'zoe', 'nunez', 'mail example', 'walker']) {
      const order: Order = (a, b) => tier(a, text) - tier(b, text) || byText(b.id, a.id);
      for (const [offset, limit] of [
        [0, 8],
        [0, 100],
        [500, 100],
      ] as const) {
        for (const route of ['/api/v1/contact-summaries', '/api/v1/contacts']) {
          expect(
            await page(quiet, route, text, `limit=${limit}&offset=${offset}&sortBy=relevance`),
            `${text} ${route} ${offset}`,
          ).toEqual(expected(quiet, text, order, offset, limit));
        }
        // As the donor box asks: the same page, no total (whole-word tiers past the count's cap
        // among them: every contact here has the words of "mail example").
        expect(
          await page(
            quiet,
            '/api/v1/contact-summaries',
            text,
            `limit=${limit}&offset=${offset}&sortBy=relevance&total=false`,
          ),
          `${text} total=false ${offset}`,
        ).toEqual({ ids: expected(quiet, text, order, offset, limit).ids, total: null });
      }
    }
  });
});

describe('one word by relevance where half gave: the tier paged off a window sized from its density', () => {
  // Whole-word tiers with a prefix tier behind them (brown/browning, walker/walkerson, ada/adaline),
  // words found only as a prefix (b, qui, nun, walk), the exact tier (three organisations named
  // Brown; Jo Lis whose emails start with "joli"), a name whose holders never gave (quill: the window holds none of them and the page
  // is read another way), accents (zoë, núñez), and the oldest contacts' own name.
  const SEARCHES = [
    'brown',
    'b',
    'walker',
    'walk',
    'ada',
    'jo',
    'zoe',
    'nunez',
    'nun',
    'quill',
    'qui',
    'oldfield',
    'joli',
  ];
  const PAGES = [
    [0, 8],
    [0, 20],
    [3, 20],
    [150, 40],
    [400, 100],
  ] as const;
  it('every page and total exact, with and without the total, this account only', async () => {
    const lastGift = desc((c) => c.lastDonationDate);
    for (const text of SEARCHES) {
      const order: Order = (a, b) => tier(a, text) - tier(b, text) || lastGift(a, b);
      for (const at of PAGES) {
        for (const route of ['/api/v1/contacts', '/api/v1/contact-summaries'])
          await expectPage(
            s.accountId,
            route,
            text,
            '&sortBy=relevance',
            order,
            at,
            `${text} ${route} ${at[0]}`,
          );
        expect(
          await page(
            s.accountId,
            '/api/v1/contact-summaries',
            text,
            `limit=${at[1]}&offset=${at[0]}&sortBy=relevance&total=false`,
          ),
          `${text} total=false ${at[0]}`,
        ).toEqual({ ids: expected(s.accountId, text, order, at[0], at[1]).ids, total: null });
      }
    }
  });
});

describe('several words, or one longer than the index keeps prefixes of, counted and paged from one read of their matches', () => {
  // Two words, none of one letter, two with a one-letter word, and one word of seven letters or
  // more, whole or a prefix only (SQLite: every one of them read once and held, the page walked
  // against it; by relevance, several words' set built once).
  const SEARCHES = [
    'jo brown',
    'ada walker',
    'zoe nu',
    'harbor legal',
    'mail example',
    'jo b',
    'robert w',
    'walkers',
    'brownin',
    'walkerson',
  ];
  const LIST: Array<[string, Order]> = [
    ['', desc((c) => c.createdAt)],
    ['&sortBy=createdAt&sortOrder=asc', asc((c) => c.createdAt)],
  ];
  const SUMMARIES: Array<[string, Order]> = [
    ['&sortBy=createdAt&sortOrder=desc', desc((c) => c.createdAt)],
    ['&sortBy=lastDonationDate&sortOrder=desc', desc((c) => c.lastDonationDate)],
  ];
  const PAGES = [
    [0, 20],
    [0, 100],
    [60, 20],
    [700, 50],
  ] as const;

  async function everyPage(label: string): Promise<void> {
    for (const text of SEARCHES) {
      for (const at of PAGES) {
        const what = (query: string) => `${label}: ${text} ${query} ${at[0]}`;
        for (const [query, order] of LIST)
          await expectPage(s.accountId, '/api/v1/contacts', text, query, order, at, what(query));
        for (const [query, order] of SUMMARIES)
          await expectPage(s.accountId, '/api/v1/contact-summaries', text, query, order, at, what(query));
        // By relevance where nobody gave (the newest id breaks ties) and where half gave, on days
        // that do not follow creation (the most recent gift first, never gave last).
        const relevance: Order = (a, b) => tier(a, text) - tier(b, text) || byText(b.id, a.id);
        await expectPage(
          quiet,
          '/api/v1/contacts',
          text,
          '&sortBy=relevance',
          relevance,
          at,
          what('relevance'),
        );
        const lastGift = desc((c) => c.lastDonationDate);
        const givers: Order = (a, b) => tier(a, text) - tier(b, text) || lastGift(a, b);
        await expectPage(
          s.accountId,
          '/api/v1/contacts',
          text,
          '&sortBy=relevance',
          givers,
          at,
          what('relevance with gifts'),
        );
      }
    }
  }

  it('every page exact in creation and last-gift order and by relevance, this account only', async () => {
    await everyPage('as served');
  });

  it('the same when every set is broader than SQLite builds in creation order (cut short, then counted as one word)', async () => {
    const before = searchTuning.sqliteSetCap;
    searchTuning.sqliteSetCap = 10;
    try {
      await everyPage('cap 10');
    } finally {
      searchTuning.sqliteSetCap = before;
    }
  });
});
