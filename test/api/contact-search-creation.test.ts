/**
 * A search's page in creation order read from the full-text index's newest (or oldest) matches
 * by seq (SQLite: ContactSearch.creationPage, electron/db/sqlite/creation-page.ts), checked
 * against the creation index. Every page is the one the whole match set gives: in an account
 * written in creation order, where that read answers (a second account's namesakes written seq by
 * seq between its contacts, a name matched only by its exact key), and in accounts where
 * creation and seq disagree, where it must step aside: contacts imported late with old dates,
 * and one contact written first with a creation time ahead of all (a laptop's clock set a few
 * years on). Expected pages are computed here from what was stored.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creationPageTuning } from '../../electron/db/sqlite/creation-page.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { type StatedContact, storeContacts } from '../helpers/seed-contacts.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';

type Person = StatedContact;
type Stored = Person & { id: string; accountId: string };

const FIRST = ['Ada', 'Ben', 'Bea', 'Jo', 'José', 'Zoë', 'Zoe', 'Robert', 'Łukasz'];
const LAST = ['Brown', 'Browning', 'Walker', 'Walkerson', 'Núñez', 'Żółć', 'Hale'];

let s: TestServer;
const accounts: Record<'inOrder' | 'namesakes' | 'importedLate' | 'clockAhead', string> = {
  inOrder: '',
  namesakes: '',
  importedLate: '',
  clockAhead: '',
};
const auth = new Map<string, Record<string, string>>();
const stored: Stored[] = [];
/** The pages ContactSearch.creationPage answered, by account and direction. */
const answered = new Map<string, number>();
const answers = (accountId: string, dir: 'asc' | 'desc') => answered.get(`${accountId} ${dir}`) ?? 0;

async function add(accountId: string, people: Person[]): Promise<void> {
  const ids = await storeContacts(s.store, accountId, people);
  people.forEach((p, i) => stored.push({ id: ids[i]!, accountId, ...p }));
}

const plain = (t: string) =>
  t
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ł/g, 'l');

/**
 * Contact `i`, created `i` minutes after `from`. One in five is Jo Li, whose email does not say
 * so: `joli` finds them by the exact key alone.
 */
function person(i: number, from: string): Person {
  const [firstName, lastName] =
    i % 5 === 3 ? ['Jo', 'Li'] : [FIRST[(i * 7) % FIRST.length]!, LAST[(i * 3) % LAST.length]!];
  return {
    firstName,
    lastName,
    email: i % 5 === 3 ? `guest${i}@mail.example` : `${plain(firstName)}.${plain(lastName)}${i}@mail.example`,
    createdAt: new Date(Date.parse(from) + i * 60_000).toISOString(),
  };
}

beforeAll(async () => {
  s = await startTestServer();
  accounts.inOrder = s.accountId;
  auth.set(s.accountId, { 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` });
  for (const k of ['namesakes', 'importedLate', 'clockAhead'] as const) {
    const a = await s.otherAccount();
    accounts[k] = a.accountId;
    auth.set(a.accountId, { 'x-api-key': a.keyId, authorization: `Bearer ${a.secret}` });
  }
  // Written first, created last of all: a laptop whose clock was a few years on.
  await add(accounts.clockAhead, [
    { ...person(1, '2031-01-01T00:00:00Z'), firstName: 'Jo', lastName: 'Walker' },
  ]);
  // Written in creation order, a second account's namesakes between them seq by seq.
  for (let i = 0; i < 1000; i += 50) {
    for (const k of ['inOrder', 'namesakes', 'importedLate', 'clockAhead'] as const)
      await add(
        accounts[k],
        Array.from({ length: 50 }, (_, j) => person(i + j, '2024-01-01T00:00:00Z')),
      );
  }
  // Imported late with old dates: the highest seqs, the oldest by creation.
  await add(
    accounts.importedLate,
    Array.from({ length: 60 }, (_, i) => person(2000 + i, '2019-01-01T00:00:00Z')),
  );
  // Counted each time the read answers, so that the pages below are known to come from it.
  const search = s.store.search;
  const read = search.creationPage?.bind(search);
  if (read)
    search.creationPage = async (text, accountId, dir, skip, take) => {
      const ids = await read(text, accountId, dir, skip, take);
      if (ids) answered.set(`${accountId} ${dir}`, answers(accountId, dir) + 1);
      return ids;
    };
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const words = (t: string) =>
  plain(t)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** Every word starts a word of the contact, or the text is its exact key (name either way, email). */
function matches(c: Stored, text: string): boolean {
  const tokens = words([c.firstName, c.lastName, c.email].join(' '));
  const key = words(text).join('');
  const keys = [c.firstName + c.lastName, c.lastName + c.firstName, c.email].map((k) => words(k).join(''));
  return words(text).every((w) => tokens.some((t) => t.startsWith(w))) || keys.includes(key);
}
const byCreation = (dir: 'asc' | 'desc') => (a: Stored, b: Stored) => {
  const d =
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return dir === 'asc' ? d : -d;
};

async function expectPages(accountId: string, label: string): Promise<void> {
  const searches = ['b', 'brown', 'jo', 'joli', 'walker', 'zoe', 'mail', 'lukasz zolc', 'zolc'];
  const pages = [
    [0, 20],
    [0, 100],
    [37, 20],
    [150, 50],
    [400, 30],
  ] as const;
  for (const text of searches)
    for (const dir of ['desc', 'asc'] as const)
      for (const [offset, limit] of pages) {
        const found = stored
          .filter((c) => c.accountId === accountId && matches(c, text))
          .sort(byCreation(dir));
        const want = { ids: found.slice(offset, offset + limit).map((c) => c.id), total: found.length };
        for (const route of ['/api/v1/contacts', '/api/v1/contact-summaries']) {
          const res = await rawRequest(
            `${s.url}${route}?accountId=${accountId}&search=${encodeURIComponent(text)}&sortBy=createdAt&sortOrder=${dir}&limit=${limit}&offset=${offset}`,
            'GET',
            undefined,
            auth.get(accountId),
          );
          const body = expectStatus(res, 200) as { data: Array<{ id: string }>; total: number };
          expect(
            { ids: body.data.map((d) => d.id), total: body.total },
            `${label}: ${text} ${dir} ${offset}+${limit} ${route}`,
          ).toEqual(want);
        }
      }
}

describe('a page in creation order read from the newest (or oldest) matches by seq', () => {
  it('written in creation order: every page exact (on SQLite, read from the newest or oldest matches)', async () => {
    answered.clear();
    await expectPages(accounts.inOrder, 'in order');
    await expectPages(accounts.namesakes, 'namesakes');
    if (s.store.engine === 'sqlite') {
      // The broad one-word searches' pages, both ways, but the deepest.
      for (const account of [accounts.inOrder, accounts.namesakes])
        for (const dir of ['asc', 'desc'] as const) expect(answers(account, dir)).toBeGreaterThanOrEqual(20);
    }
  });

  it('imported late with old dates: every page exact', async () => {
    await expectPages(accounts.importedLate, 'imported late');
  });

  it('one contact written first with a creation time ahead of all: every page exact', async () => {
    answered.clear();
    await expectPages(accounts.clockAhead, 'clock ahead');
    // Newest first, a walk down the creation index meets it before any page's last row, and the
    // read steps aside (but where its candidates are every match); oldest first, it comes last.
    if (s.store.engine === 'sqlite') expect(answers(accounts.clockAhead, 'asc')).toBeGreaterThanOrEqual(20);
  });

  it('a check that would walk further than it may: newest first told by the creation times kept by seq, else read another way; still exact', async () => {
    const before = creationPageTuning.walk;
    creationPageTuning.walk = 40;
    answered.clear();
    try {
      await expectPages(accounts.inOrder, 'walk of 40');
      await expectPages(accounts.clockAhead, 'clock ahead, walk of 40');
    } finally {
      creationPageTuning.walk = before;
    }
    if (s.store.engine === 'sqlite') {
      // Newest first, the account's contacts written in creation order: the latest creation
      // time below the candidates says the page is whole, with no walk.
      expect(answers(accounts.inOrder, 'desc')).toBeGreaterThanOrEqual(20);
      // Oldest first walks: only where the candidates are every match, or a dense word's first page.
      expect(answers(accounts.inOrder, 'asc')).toBeLessThan(20);
      // The account whose first contact was created years ahead: its own times say so, and its
      // pages need the walk, which is too short here (another account's clock is not its).
      expect(answers(accounts.clockAhead, 'desc')).toBeLessThan(20);
    }
  });

  it('a contact whose creation time is moved later after it was written: every page exact', async () => {
    const accountId = accounts.inOrder;
    // One of the first `walker`s written, moved after every other contact of the account.
    const moved = stored.find((c) => c.accountId === accountId && plain(c.lastName) === 'walker')!;
    moved.createdAt = '2030-06-01T00:00:00.000Z';
    await sql`update contacts set created_at = ${moved.createdAt} where id = ${moved.id}`.execute(s.store.db);
    answered.clear();
    await expectPages(accountId, 'moved later');
  });
});
