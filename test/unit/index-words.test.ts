/**
 * A contact's words split in JavaScript as SQLite's full-text index splits them
 * (db/sqlite/index-words.ts), which relevance's one-read page trusts to tell whole-word matches
 * from prefix ones. Every character the split claims to know is written into a real contact
 * through the real triggers, and the index's own words for it (FTS5's vocabulary of the
 * contacts' index) are compared with the split's; the characters it does not know give null.
 * Then relevance's page with its total (one read, the split) against the page without the
 * total (the index's own whole-word match), with names the split does not know in the window;
 * and the page without its total told from the contacts' own texts (a walk of the last-gift
 * order) against the same page read from the index alone.
 */
import { type Kysely, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { relevancePage } from '../../electron/domain/contacts/relevance.ts';
import { searchTuning } from '../../electron/domain/contacts/search.ts';
import { createContext } from '../../electron/domain/context.ts';
import { INDEX_TEXTS } from '../../electron/db/sqlite/search.ts';
import { indexWords, wordTierCalls } from '../../electron/db/sqlite/index-words.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import type { Store } from '../../electron/db/store.ts';
import type { WindowScan } from '../../electron/db/contact-search.ts';
import { freshDatabase } from '../helpers/server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function sqliteStore(): Promise<Store> {
  const fresh = await freshDatabase('sqlite');
  const store = await openSqlite({ file: `${fresh.dataDir}/giftdesk.sqlite` });
  cleanups.push(async () => {
    await store.close();
    await fresh.drop();
  });
  return store;
}

interface Person {
  first: string;
  middle?: string | null;
  last: string;
  email?: string | null;
  organization?: string | null;
  lastGift?: string | null;
}

async function insert(store: Store, accountId: string, people: readonly Person[]): Promise<void> {
  const db = store.db as unknown as Kysely<unknown>;
  const at = '2026-12-05T10:00:00.000Z';
  await sql`insert into accounts (id, name, created_at) values (${accountId}, 'Words', ${at})`.execute(db);
  for (const [i, p] of people.entries()) {
    await sql`insert into contacts (id, account_id, contact_type, status, first_name, middle_name, last_name,
        email, organization, total_cents, last_donation_date, created_at, updated_at)
      values (${`cnt_${accountId}_${String(i).padStart(5, '0')}`}, ${accountId}, 'INDIVIDUAL', 'ACTIVE',
        ${p.first}, ${p.middle ?? null}, ${p.last}, ${p.email ?? null}, ${p.organization ?? null}, 0,
        ${p.lastGift ?? null}, ${at}, ${at})`.execute(db);
  }
  await sql`insert into account_counter_slots (account_id, slot, contacts, donations)
    values (${accountId}, 0, ${people.length}, 0)`.execute(db);
}

/** The index's words of each contact, by column, in order; and the split's, from the same texts. */
async function bothSplits(store: Store) {
  const db = store.db as unknown as Kysely<unknown>;
  await sql`create virtual table if not exists temp.index_words using fts5vocab(main, contacts_fts, instance)`.execute(
    db,
  );
  const vocab = await sql<{ term: string; doc: number; col: string }>`select term, doc, col
    from temp.index_words where col in ('name', 'email', 'organization') order by doc, col, offset`.execute(
    db,
  );
  const fromIndex = new Map<number, Record<string, string[]>>();
  for (const v of vocab.rows) {
    const cols = fromIndex.get(v.doc) ?? {};
    (cols[v.col] ??= []).push(v.term);
    fromIndex.set(v.doc, cols);
  }
  const rows = await sql<{ seq: number; texts: string }>`select contacts.seq, ${INDEX_TEXTS} as texts
    from contacts order by seq`.execute(db);
  return rows.rows.map((r) => {
    const texts = JSON.parse(r.texts) as Array<string | null>;
    const index = fromIndex.get(r.seq) ?? {};
    return {
      texts,
      index: ['name', 'email', 'organization'].map((c) => index[c] ?? []),
      split: texts.map(indexWords),
    };
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** What the split claims to know, and Greek and Cyrillic (which it does not). */
const CODE_POINTS = [
  ...range(0x1, 0x24f),
  ...range(0x300, 0x36f),
  ...range(0x1e00, 0x1eff),
  ...range(0x2000, 0x206f),
  ...range(0x370, 0x4ff),
];

/**
 * A contact for each code point of CODE_POINTS: the character alone in a word, inside one,
 * doubled; then its upper case (which may be another character: µ's is Greek) in a contact of
 * its own.
 */
const codePointPeople = (): Person[] =>
  CODE_POINTS.flatMap((cp) =>
    [String.fromCodePoint(cp), String.fromCodePoint(cp).toUpperCase()].map((c) => ({
      first: `a${c}b`,
      middle: `${c}${c}`,
      last: `${c}z`,
      email: `x${c}q@mail.example`,
      organization: `${c} & ${c}o`,
    })),
  );

it('splits every character it knows as the full-text index does, and knows no others', async () => {
  const store = await sqliteStore();
  const people = codePointPeople();
  // Names as volunteers type them (and as the index is fed: accents decomposed or not).
  const messy: Person[] = [
    { first: 'Łukasz', last: 'Żółć', email: 'lukasz.zolc@example.pl' },
    { first: 'Robert', middle: 'J.', last: "O'Brien-Smith", organization: 'St. Mary’s Parish' },
    { first: 'José', last: 'Núñez', organization: 'Núñez & Hijos, S.A.' },
    { first: 'Jose\u0301', last: 'Nu\u0303n\u0303ez' },
    { first: 'Nguyễn', last: 'Thị Minh Khai' },
    { first: 'Søren', last: 'Ødegård', organization: 'Østfold Røde Kors' },
    { first: 'Æsa', last: 'Strauß', organization: 'STRAẞE' },
    { first: 'Zoë', last: 'Brown', email: 'zoe+gifts@example.org' },
  ];
  await insert(store, 'acct_IW', [...people, ...messy]);
  const all = await bothSplits(store);
  expect(all).toHaveLength(people.length + messy.length);

  // Column by column: wherever the split knows the text, it is the index's.
  const wrong = all.flatMap((r) =>
    r.texts.flatMap((text, c) =>
      r.split[c] !== null && JSON.stringify(r.split[c]) !== JSON.stringify(r.index[c])
        ? [{ text, index: r.index[c], split: r.split[c] }]
        : [],
    ),
  );
  expect(wrong).toEqual([]);
  // Most of Latin is known (962 of the 1,071 code points: not a test that holds because
  // nothing is split).
  const latin = all.slice(0, 2 * CODE_POINTS.indexOf(0x370));
  expect(latin.filter((r) => r.split.every((s) => s !== null)).length).toBeGreaterThan(0.85 * latin.length);
  // Every messy name is known, and split as the index splits it.
  expect(all.slice(people.length).every((r) => r.split.every((s) => s !== null))).toBe(true);
  // Greek and Cyrillic letters are not.
  const greekAndCyrillic = all.slice(2 * CODE_POINTS.indexOf(0x370), people.length);
  const lettersThere = greekAndCyrillic.filter((r) => /\p{L}/u.test(r.texts[0] ?? ''));
  expect(lettersThere.length).toBeGreaterThan(300);
  expect(lettersThere.every((r) => r.split[0] === null)).toBe(true);
});

it("passes no contact the index finds a word in: the walk's patterns hold each, and its own tier is the index's", async () => {
  const store = await sqliteStore();
  const people = codePointPeople();
  // Accents typed as marks after their letter (inside a word too), letters that become two
  // (ß, æ, œ, þ), a capital I with a dot, the Kelvin sign, full-width letters, a ligature.
  const messy: Person[] = [
    { first: 'Łukasz', last: 'Żółć', email: 'lukasz.zolc@example.pl' },
    { first: 'Jose\u0301', last: 'Nu\u0303n\u0303ez', organization: 'Zoe\u0308y & Ade\u0300le' },
    { first: 'Æsa', last: 'Strauß', organization: 'STRAẞE Œuvre' },
    { first: 'Þórunn', last: 'Þorsteinsdóttir', email: 'thorunn@example.is' },
    { first: 'İlkay', last: 'Gündoğan', organization: '\u212Aate Trust' },
    { first: 'Ｊａｎｅ', last: 'Brown', organization: 'ﬁsh & Co' },
    { first: 'Zoë', last: 'Brown', email: 'zoe+gifts@example.org' },
    { first: 'Jane', last: 'Smith', email: 'jane.smith@example.org' },
  ];
  await insert(store, 'acct_WG', [...people, ...messy]);
  const db = store.db as unknown as Kysely<unknown>;
  await sql`create virtual table if not exists temp.index_terms using fts5vocab(main, contacts_fts, row)`.execute(
    db,
  );
  const terms = await sql<{ term: string }>`select term from temp.index_terms`.execute(db);
  // Every word of plain letters and digits the index holds, and its first three letters.
  const words = new Set<string>();
  for (const { term } of terms.rows) {
    if (!/^[a-z0-9]+$/.test(term)) continue;
    for (const w of [term, term.slice(0, 3)]) words.add(w);
  }
  expect(words.size).toBeGreaterThan(250);
  for (const w of [
    'zoey',
    'adele',
    'strauss',
    'strasse',
    'aesa',
    'oeuvre',
    'thorunn',
    'ilkay',
    'kate',
    'jane',
    'fish',
  ]) {
    words.add(w);
  }
  const missed: string[] = [];
  const wrongTier: string[] = [];
  let candidates = 0;
  let rows = 0;
  for (const word of words) {
    const test = store.search.textTest!(word);
    if (!test) continue;
    const r = await sql<{ id: string; candidate: number; tier: string; prefix: number; whole: number }>`select
        contacts.id, ${test.candidate} as candidate, ${test.tier} as tier,
        contacts.seq in (select rowid from contacts_fts where contacts_fts match ${`{name email organization} : "${word}"*`}) as prefix,
        contacts.seq in (select rowid from contacts_fts where contacts_fts match ${`{name email organization} : "${word}"`}) as whole
      from contacts`.execute(db);
    for (const c of r.rows) {
      rows += 1;
      if (c.candidate) candidates += 1;
      if (c.prefix && !c.candidate) missed.push(`${word}: ${c.id}`);
      const index = c.whole ? 'words' : c.prefix ? 'prefix' : 'none';
      if (c.candidate && c.tier !== 'unknown' && c.tier !== index)
        wrongTier.push(`${word}: ${c.id} ${c.tier} ${index}`);
    }
  }
  expect(missed).toEqual([]);
  expect(wrongTier).toEqual([]);
  expect(candidates).toBeLessThan(rows);
  // The patterns leave out the names that cannot hold the word: of the messy names, `jane`
  // keeps the two Janes, those holding a mark or a letter that becomes two, and Żółć (four
  // letters beyond ASCII in a row could be j, a, n, e with accents), not İlkay or Zoë.
  const first = people.length;
  const jane = store.search.textTest!('jane')!;
  const kept = await sql<{ id: string }>`select contacts.id from contacts where ${jane.candidate}
      and contacts.id >= ${`cnt_acct_WG_${String(first).padStart(5, '0')}`} order by contacts.id`.execute(db);
  const at = (i: number) => `cnt_acct_WG_${String(first + i).padStart(5, '0')}`;
  expect(kept.rows.map((r) => r.id)).toEqual([at(0), at(1), at(2), at(3), at(5), at(7)]);
});

it('gives the page by relevance with its total as the index gives it without, names it cannot split among the newest givers', async () => {
  const store = await sqliteStore();
  const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 330) * 86_400_000).toISOString();
  const people: Person[] = [];
  for (let i = 0; i < 600; i++) {
    const greek = i % 50 === 7;
    people.push({
      first: ['Ada', 'Adaline', 'Ada', 'Adam', 'Robert'][i % 5]!,
      last: ['Brown', 'Browning', 'Brown'][i % 3]!,
      email: i % 4 === 0 ? `ada.brown${i}@example.org` : null,
      // An organisation in Greek among the newest givers: the split does not know it.
      organization: greek ? 'Ἀδελφότης Ἁγίας Ἄννης' : i % 9 === 0 ? 'Ada Lovelace Trust' : null,
      lastGift: i % 2 === 0 || greek ? day(i) : null,
    });
  }
  await insert(store, 'acct_RW', people);
  const ctx = createContext(store);
  const search = ctx.store.search;
  const seen = { scans: 0, unknown: 0 };
  const windowScan = search.windowScan?.bind(search);
  search.windowScan = async (...args) => {
    const scan = await windowScan!(...args);
    if (!scan) return scan;
    seen.scans += 1;
    return {
      ...scan,
      wholeIn: (texts) => {
        const whole = scan.wholeIn(texts);
        if (whole === null) seen.unknown += 1;
        return whole;
      },
    } satisfies WindowScan;
  };
  for (const text of ['ada', 'brown', 'robert', 'adam']) {
    for (const [offset, limit] of [
      [0, 8],
      [0, 20],
      [5, 20],
      [100, 50],
    ] as const) {
      const withTotal = await relevancePage(ctx, 'acct_RW', text, offset, limit);
      const without = await relevancePage(ctx, 'acct_RW', text, offset, limit, { total: false });
      expect(withTotal.ids, `${text} ${offset}`).toEqual(without.ids);
      expect(withTotal.total, text).toBe(await search.count(text, 'acct_RW'));
    }
  }
  // The one read ran, and met the organisation it cannot split.
  expect(seen.scans).toBeGreaterThan(0);
  expect(seen.unknown).toBeGreaterThan(0);
});

it("gives a page without its total from the contacts' own texts as the index gives it, accents, namesakes and names it cannot split among them", async () => {
  const store = await sqliteStore();
  const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 330) * 86_400_000).toISOString();
  const people: Person[] = [];
  for (let i = 0; i < 1600; i++) {
    people.push({
      // Plain and accented spellings of the same names, a name that only starts another
      // (Ada, Adaline, Adam), and three Robert Browns.
      first: ['Ada', 'Adèle', 'Łukasz', 'lukasz', 'Adaline', 'Adam', 'Robert', 'Zoë'][i % 8]!,
      last: ['Brown', 'Żółć', 'zolc', 'Browning', 'Brown-Adams'][i % 5]!,
      middle: i % 11 === 0 ? 'Ádá' : null,
      email: i % 4 === 0 ? `ada.brown${i}@example.org` : i % 7 === 0 ? `lukasz.zolc${i}@przykład.pl` : null,
      // An organisation in Greek (the split does not know it; half of them the oldest givers,
      // half never gave), one whose name is the search itself (the exact tier), one holding
      // the word, and one holding it only with its accents (a plain name beside it).
      organization:
        i % 50 === 7
          ? 'Ἀδελφότης Ἁγίας Ἄννης'
          : i === 3
            ? 'Ada'
            : i % 9 === 0
              ? 'Ada Lovelace Trust'
              : i % 13 === 5
                ? 'Fundacja Łukasza Żółcia, Ádám'
                : null,
      // The exact one the newest giver, so a walk of the last-gift order meets it first.
      lastGift:
        i === 3
          ? '2026-12-31T00:00:00.000Z'
          : i % 100 === 7
            ? '2025-06-01T00:00:00.000Z'
            : i % 3 !== 2 && i % 50 !== 7
              ? day(i)
              : null,
    });
  }
  await insert(store, 'acct_TW', people);
  const ctx = createContext(store);
  const search = ctx.store.search;
  // The walk's contacts told by the statement's own function (wordTierCalls), and the pages
  // it answered alone.
  const seen = { pages: 0 };
  const recentDensity = search.recentDensity;
  const before = searchTuning.sqliteWalkCost;
  try {
    for (const text of ['ada', 'adam', 'brown', 'lukasz', 'zolc', 'adele', 'zoe', 'rob']) {
      for (const [offset, limit] of [
        [0, 8],
        [0, 20],
        [5, 20],
        [100, 50],
        // Past the whole-word tier, into the last.
        [650, 100],
      ] as const) {
        searchTuning.sqliteWalkCost = 0;
        search.recentDensity = recentDensity;
        const was = { ...wordTierCalls };
        const walked = await relevancePage(ctx, 'acct_TW', text, offset, limit, { total: false });
        // A page told from the texts alone (the walk's own answer, not the index's after it).
        if (wordTierCalls.told > was.told && wordTierCalls.unknown === was.unknown) seen.pages += 1;
        // The index alone: no density, so no window and no walk; every tier counted and read
        // from the full-text index.
        search.recentDensity = undefined;
        const fromIndex = await relevancePage(ctx, 'acct_TW', text, offset, limit, { total: false });
        expect(walked.ids, `${text} ${offset} ${limit}`).toEqual(fromIndex.ids);
        // With the total: the walk's statement counts too; the same page, the index's count.
        search.recentDensity = recentDensity;
        const walkedWithTotal = await relevancePage(ctx, 'acct_TW', text, offset, limit);
        search.recentDensity = undefined;
        const indexWithTotal = await relevancePage(ctx, 'acct_TW', text, offset, limit);
        expect(walkedWithTotal, `${text} ${offset} ${limit} with its total`).toEqual(indexWithTotal);
        expect(walkedWithTotal.total).toBe(await search.count(text, 'acct_TW'));
        if (offset === 0) expect(walked.ids.length, `${text} ${limit}`).toBeGreaterThan(0);
      }
    }
  } finally {
    searchTuning.sqliteWalkCost = before;
    search.recentDensity = recentDensity;
  }
  // The walk gave pages from the contacts' texts, and met the organisation it cannot split.
  expect(seen.pages).toBeGreaterThan(10);
  expect(wordTierCalls.unknown).toBeGreaterThan(0);
});
