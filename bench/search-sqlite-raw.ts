/**
 * The same work as each HTTP search variant, by hand (bench/search-sqlite.ts): prepared
 * statements over better-sqlite3 on the same file, no Fastify, no Kysely, no zod. Each page is
 * read by every raw strategy that gives the right answer, and a search's baseline is the one
 * fastest for it after the fact (lowest p50): an oracle no product can be.
 *
 * The work, per request, as the route answers it:
 * - the account-scoped count of the whole match set (the total the page shows): the words'
 *   matches counted in FTS5 less the other accounts' tokens, plus the exact-key matches the
 *   words miss (counted by row, as they are a handful);
 * - relevance only: the same count for the exact tier and the whole-word tier (the tiers'
 *   boundaries; the whole-word one capped as the product caps it, wordsCap), and each tier's
 *   page with the tiers above it left out;
 * - the donor box asks without the total (`total=false`, as DonorPicker does): the whole match
 *   set is counted only when the page reaches the prefix tier;
 * - the page: `take` ids in the order (createdAt desc, id desc; or last gift desc nulls last,
 *   id desc within a tier), by the fastest strategy, a fallback's cost included: `walk` the
 *   order's index probing the match set built once; `sort` every match; a `window` of the
 *   order's index whose seq span bounds the FTS5 read (else walk); one word by relevance read
 *   as the product does: off a window sized from its newest matches' `density` (else window),
 *   with its total from one read, the kept words `split` in JavaScript (else density); one word
 *   by relevance or in the donor box walked until its page is full, each contact told from its
 *   `texts` (else density); the list's match set read
 *   once and `held`, or its `newest` matches (search-sqlite-raw-list.ts; else window);
 * - the page's fields: the list row (GET /contacts) or the summary with the primary city (the
 *   donor box), one statement by id.
 *
 * A bound LIMIT is written `limit +?`, as the app's connection sends it (limitNotPlanned in
 * electron/db/sqlite/connection.ts): as a bare parameter SQLite plans with its value and
 * prepares the statement again at every run.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { exactKey, searchWords } from '../electron/db/contact-search.ts';
import { registerWordTier, wholeWordsTest } from '../electron/db/sqlite/index-words.ts';
import { ftsWords } from '../electron/db/sqlite/search.ts';
import { wordsCap } from '../electron/domain/contacts/relevance.ts';
import { rawList } from './search-sqlite-raw-list.ts';
import { rawWalk } from './search-sqlite-raw-walk.ts';

type Db = BetterSqlite3.Database;
type Order = 'created' | 'lastGift';
export type RawVariant = 'list' | 'relevance' | 'box';

const ORDER: Record<Order, { sql: string; cols: string }> = {
  created: { sql: 'created_at desc, id desc', cols: 'seq, created_at, id' },
  lastGift: { sql: 'last_donation_date desc nulls last, id desc', cols: 'seq, last_donation_date, id' },
};

const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;
const token = (accountId: string) => `"${Buffer.from(accountId, 'utf8').toString('hex')}"`;

export interface RawSearch {
  /** The ids of the page and the total, as the route answers them. */
  run(variant: RawVariant, search: string, strategy: Strategy): { ids: string[]; total: number | null };
  /** One word by relevance as the product reads it (relevance-words.ts), or null where it reads it another way. */
  density(variant: RawVariant, search: string): { ids: string[]; total: number | null } | null;
  /** One word by relevance with its total from one read (relevance.ts wordsPageWithTotal), or null. */
  split(search: string): { ids: string[]; total: number | null } | null;
  /** One word by relevance or in the donor box, walked and told (relevance-words.ts walkedPage), or null. */
  texts(variant: RawVariant, search: string): { ids: string[]; total: number | null } | null;
}
export const STRATEGIES = ['walk', 'sort', 'window', 'density', 'split', 'texts', 'held', 'newest'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export function rawSearch(db: Db, accountId: string): RawSearch {
  registerWordTier(db);
  const one = (source: string) => db.prepare(source).pluck();
  const others = (one('select id from accounts where id <> ?').all(accountId) as string[]).map(token);
  const accountContacts = Number(
    one('select coalesce(sum(contacts), 0) from account_counter_slots where account_id = ?').get(accountId),
  );
  const top = Number(db.prepare('select max(seq) from contacts').pluck().get());
  const ftsCount = db.prepare('select count(*) from contacts_fts where contacts_fts match ?').pluck();
  const ftsCountCapped = db
    .prepare('select count(*) from (select rowid from contacts_fts where contacts_fts match ? limit +?)')
    .pluck();
  const exactCount = db
    .prepare(
      `select count(*) from contacts c where +c.account_id = ? and c.seq in (select rowid from contacts_exact where contacts_exact match ?)`,
    )
    .pluck();
  const exactMissed = db
    .prepare(
      `select count(*) from contacts c where +c.account_id = ? and c.seq in (select rowid from contacts_exact where contacts_exact match ?)
       and c.seq not in (select rowid from contacts_fts where contacts_fts match ?)`,
    )
    .pluck();
  // A JS number binds as a REAL, which FTS5 ignores as a rowid bound (it reads every match): cast.
  const range = (b: boolean) => (b ? ' and rowid between cast(? as integer) and cast(? as integer)' : '');
  const set = (b: boolean) => `select rowid from contacts_fts where contacts_fts match ?${range(b)}
     union all select rowid from contacts_exact where contacts_exact match ?${range(b)}`;
  /** The tiers above, left out of a lower tier's page: the exact tier, or the words tier (exact included). */
  const without = {
    exact: 'and seq not in (select rowid from contacts_exact where contacts_exact match ?)',
    words: `and seq not in (select rowid from contacts_fts where contacts_fts match ?
      union all select rowid from contacts_exact where contacts_exact match ?)`,
  };
  type Out = { tier: keyof typeof without; args: string[] } | null;
  /** The page's fields, one statement by id: the list row or the donor box's summary. */
  const withRows = (variant: RawVariant, search: string, ids: string[], total: number | null) => {
    const rows = (variant === 'box' ? boxRows : listRows).all(JSON.stringify(ids)) as Array<{ id: string }>;
    if (rows.length !== ids.length) throw new Error(`${search}: ${rows.length} rows for ${ids.length} ids`);
    return { ids, total };
  };
  const pages = new Map<string, BetterSqlite3.Statement>();
  const stmt = (key: string, source: () => string) => {
    let s = pages.get(key);
    if (!s) pages.set(key, (s = db.prepare(source())));
    return s;
  };
  const listRows = db.prepare(
    `select id, account_id, first_name, last_name, email, phone, organization, created_at, updated_at
     from contacts where id in (select value from json_each(?))`,
  );
  const boxRows = db.prepare(
    `select c.id, c.contact_type, c.status, c.first_name, c.last_name, c.organization, c.email, c.phone, c.tags,
       c.total_cents, c.last_donation_date, c.created_at, c.updated_at,
       (select a.city from contact_addresses a where a.contact_id = c.id order by a.is_primary desc, a.position limit 1) as city
     from contacts c where c.id in (select value from json_each(?))`,
  );
  const bounds = new Map<Order, BetterSqlite3.Statement>();
  for (const o of ['created', 'lastGift'] as const)
    bounds.set(
      o,
      db.prepare(
        `select min(seq) as lo, max(seq) as hi, count(*) as n from (select seq from contacts where account_id = ? order by ${ORDER[o].sql} limit +?)`,
      ),
    );

  // The words' match as the product builds it (a column filter only on words that could be an
  // account's hex token): the best raw way, not a slower one.
  const match = (words: string[], star: '*' | '') => ftsWords(words, star);
  const scoped = (m: string) => (others.length === 0 ? m : `(${m}) NOT account : (${others.join(' OR ')})`);
  /** The account's matches of a tier: the words' (scoped in FTS5), plus the exact ones the words miss. */
  const count = (m: string, key: string, nExact: number, cap?: number) =>
    Number(cap === undefined ? ftsCount.get(scoped(m)) : ftsCountCapped.get(scoped(m), cap)) +
    (nExact > 0 ? Number(exactMissed.get(accountId, key, m)) : 0);
  const prefixOf = (s: string) => match(searchWords(s), '*');
  const all = (s: string, key = quote(exactKey(s) ?? '')) =>
    count(prefixOf(s), key, Number(exactCount.get(accountId, key)));
  const list = rawList(db, accountId, accountContacts, (s) => scoped(prefixOf(s)), all);
  /** One tier's page: `take` ids after `skip`, the tiers above (`out`) left out. */
  const page = (
    strategy: Strategy,
    order: Order,
    m: string,
    key: string,
    out: Out,
    size: number,
    skip: number,
    take: number,
  ): string[] => {
    if (size <= 0 || take <= 0) return [];
    const o = ORDER[order];
    const outArgs = out?.args ?? [];
    const outSql = out ? without[out.tier] : '';
    if (strategy === 'window') {
      const expected = ((skip + take) * accountContacts) / size;
      const window = Math.min(accountContacts, Math.ceil(1.5 * expected) + 64);
      const b = bounds.get(order)!.get(accountId, window) as { lo: number; hi: number; n: number };
      if (b.lo != null && (b.hi - b.lo + 1) * 4 <= top) {
        const ids = stmt(
          `window ${order} ${out?.tier}`,
          () => `select id from (select ${o.cols} from contacts where account_id = ? order by ${o.sql} limit +?)
            where seq in (${set(true)}) ${outSql} order by ${o.sql} limit +? offset ?`,
        )
          .pluck()
          .all(accountId, window, m, b.lo, b.hi, key, b.lo, b.hi, ...outArgs, take, skip) as string[];
        if (ids.length === take || b.n < window) return ids;
      }
      strategy = 'walk';
    }
    // walk: the order's index (account_id first) probing the set; sort: the set drives (+account_id).
    const acct = strategy === 'walk' ? 'account_id' : '+account_id';
    return stmt(
      `${strategy} ${order} ${out?.tier}`,
      () => `select id from contacts where ${acct} = ? and seq in (${set(false)}) ${outSql}
        order by ${o.sql} limit +? offset ?`,
    )
      .pluck()
      .all(accountId, m, key, ...outArgs, take, skip) as string[];
  };

  const lastGiftWalk = (cols: string, w: number) =>
    `select ${cols} from contacts where account_id = @a order by ${ORDER.lastGift.sql} limit ${w}`;
  const newest = db.prepare(
    'select count(*) as n, min(rowid) as lo from (select rowid from contacts_fts where contacts_fts match ? order by rowid desc limit 128)',
  );
  /** The window a tier's first `upTo` rows should fall in, from its newest 128 matches' density (null: fewer, or too wide). */
  const densityWindow = (m: string, upTo: number): number | null => {
    const d = newest.get(m) as { n: number; lo: number | null };
    if (d.n < 128 || d.lo == null) return null;
    const w = Math.min(accountContacts, Math.ceil(((2 * upTo + 16) * (top - d.lo + 1)) / d.n) + 64);
    return w > 6000 ? null : w;
  };
  const exactKeys = 'select rowid from contacts_exact where contacts_exact match @k';
  /** One word's whole-word tier, the exact one left out: its first `take` off a window, null if it held fewer. */
  const densityWords = (whole: string, key: string, take: number): string[] | null => {
    const w = densityWindow(whole, take);
    if (w === null) return null;
    const ids = stmt(
      `density words ${w}`,
      () => `with w as materialized (${lastGiftWalk('seq', w)})
        select id from (${lastGiftWalk('seq, last_donation_date, id', w)})
        where seq in (select rowid from contacts_fts where contacts_fts match @m and +rowid in (select seq from w))
          and seq not in (${exactKeys}) order by ${ORDER.lastGift.sql} limit @take`,
    )
      .pluck()
      .all({ a: accountId, m: whole, k: key, take }) as string[];
    return ids.length === take ? ids : null;
  };
  /** One word's last tier when the words have no whole-word match but exact ones: page and total from one read. */
  const densityLast = (prefix: string, whole: string, key: string, take: number) => {
    const w = densityWindow(prefix, take);
    if (w === null) return null;
    const r = stmt(
      `density last ${w}`,
      () => `with w as materialized (${lastGiftWalk('seq', w)}),
        scan as materialized (select count(*) as n, json_group_array(rowid) filter (where +rowid in (select seq from w)) as members
          from contacts_fts where contacts_fts match @p)
        select (select count(*) from w) as inWindow, (select n from scan) as n,
          (select json_group_array(id) from (select id from (${lastGiftWalk('seq, last_donation_date, id', w)})
            where +seq in (select value from json_each((select members from scan)))
              and not exists (select 1 from contacts_fts where contacts_fts match @m and rowid = seq)
              and seq not in (${exactKeys}) order by ${ORDER.lastGift.sql} limit @take)) as ids`,
    ).get({ a: accountId, p: scoped(prefix), m: whole, k: key, take }) as {
      inWindow: number;
      n: number;
      ids: string;
    };
    const ids = JSON.parse(r.ids) as string[];
    return ids.length === take || r.inWindow < w ? { ids, n: r.n } : null;
  };

  /**
   * One word by relevance with its total, as the product reads it since its one read: the
   * whole-word tier's first `take` (the exact tier left out) and the total from one read of the
   * word's prefix matches, kept among a window sized from the whole word's density, the kept
   * contacts' words split in JavaScript (index-words.ts). Null if the window held fewer, or a
   * kept contact's text cannot be split there.
   */
  const splitWords = (words: string[], prefix: string, whole: string, key: string, take: number) => {
    const w = densityWindow(whole, take);
    if (w === null) return null;
    const r = stmt(
      `split ${w}`,
      () => `with w as materialized (${lastGiftWalk('seq', w)}),
        scan as materialized (select count(*) as n, json_group_array(rowid) filter (where +rowid in (select seq from w)) as members
          from contacts_fts where contacts_fts match @p)
        select (select n from scan) as n,
          (select json_group_array(json_array(id, first_name || ' ' || coalesce(middle_name, '') || ' ' || last_name,
              coalesce(email, '') || ' ' || coalesce(primary_email, ''), coalesce(organization, '')))
            from (select id, first_name, middle_name, last_name, email, primary_email, organization from contacts
              where seq in (select value from json_each((select members from scan))) and seq not in (${exactKeys})
              order by ${ORDER.lastGift.sql})) as kept`,
    ).get({ a: accountId, p: scoped(prefix), k: key }) as { n: number; kept: string };
    const ids: string[] = [];
    const wholeIn = wholeWordsTest(words);
    for (const [id, ...texts] of JSON.parse(r.kept) as Array<[string, string | null, string, string]>) {
      const inTier = wholeIn(texts);
      if (inTier === null) return null;
      if (inTier) ids.push(id);
      if (ids.length === take) return { ids, n: Number(r.n) };
    }
    return null;
  };

  const walkTexts = rawWalk(db, { accountId, densityWindow, lastGiftWalk, exactKeys });

  /** The exact tier's first `take`: the exact key's few matches, sorted. */
  const exactPage = (key: string, take: number) =>
    stmt(
      'exact',
      () => `select id from contacts where +account_id = ? and seq in (select rowid from contacts_exact where contacts_exact match ?)
        order by ${ORDER.lastGift.sql} limit +?`,
    )
      .pluck()
      .all(accountId, key, take) as string[];

  return {
    run(variant, search, strategy) {
      if (strategy === 'held' || strategy === 'newest') {
        const got = variant === 'list' ? list.page(strategy, search, 20) : null;
        return got ? withRows(variant, search, got.ids, got.total) : this.run(variant, search, 'window');
      }
      if (strategy === 'texts') {
        const got =
          variant !== 'list' && searchWords(search).length === 1 ? this.texts(variant, search) : null;
        return got ?? this.run(variant, search, 'density');
      }
      if (strategy === 'split') {
        // One word by relevance with its total: the product's one read, else its way before.
        const got = variant === 'relevance' && searchWords(search).length === 1 ? this.split(search) : null;
        return got ?? this.run(variant, search, 'density');
      }
      if (strategy === 'density') {
        // One word by relevance: the product's way (relevance-words.ts), else the window's.
        const got =
          variant === 'list' || searchWords(search).length !== 1 ? null : this.density(variant, search);
        return got ?? this.run(variant, search, 'window');
      }
      const words = searchWords(search);
      const key = quote(exactKey(search) ?? '');
      const take = variant === 'box' ? 8 : 20;
      const prefix = match(words, '*');
      const nExact = Number(exactCount.get(accountId, key));
      let ids: string[];
      let total: number | null;
      if (variant === 'list') {
        total = count(prefix, key, nExact);
        ids = page(strategy, 'created', prefix, key, null, total, 0, take);
      } else {
        const whole = match(words, '');
        const nWords = Math.max(nExact, count(whole, key, nExact, wordsCap(take, accountContacts)));
        // The box's total only when its page reaches the prefix tier (where the tier's size is needed).
        total = variant === 'box' && nWords >= take ? null : Math.max(nWords, count(prefix, key, nExact));
        ids = [];
        if (nExact > 0) ids.push(...exactPage(key, take));
        if (ids.length < take) {
          const out: Out = { tier: 'exact', args: [key] };
          ids.push(...page(strategy, 'lastGift', whole, key, out, nWords - nExact, 0, take - ids.length));
        }
        if (ids.length < take) {
          const out: Out = { tier: 'words', args: [whole, key] };
          ids.push(
            ...page(strategy, 'lastGift', prefix, key, out, (total ?? 0) - nWords, 0, take - ids.length),
          );
        }
        if (variant === 'box') total = null;
      }
      return withRows(variant, search, ids, total);
    },
    density(variant, search) {
      const words = searchWords(search);
      const key = quote(exactKey(search) ?? '');
      const take = variant === 'box' ? 8 : 20;
      const prefix = match(words, '*');
      const whole = match(words, '');
      const nExact = Number(exactCount.get(accountId, key));
      const ids = nExact > 0 ? exactPage(key, take) : [];
      if (ids.length < take) {
        const words = densityWords(whole, key, take - ids.length);
        if (words) ids.push(...words);
      }
      if (ids.length === take)
        return withRows(variant, search, ids, variant === 'box' ? null : count(prefix, key, nExact));
      // The whole-word tier holds nothing past the exact one: the last tier, counted in its read.
      const nWords = Math.max(nExact, count(whole, key, nExact, wordsCap(take, accountContacts)));
      if (nWords !== nExact) return null;
      const last = densityLast(prefix, whole, key, take - ids.length);
      if (!last) return null;
      const missed = nExact > 0 ? Number(exactMissed.get(accountId, key, prefix)) : 0;
      return withRows(variant, search, [...ids, ...last.ids], variant === 'box' ? null : last.n + missed);
    },
    texts(variant, search) {
      const words = searchWords(search);
      const key = quote(exactKey(search) ?? '');
      const [take, nExact] = [variant === 'box' ? 8 : 20, Number(exactCount.get(accountId, key))];
      const total = () => (variant === 'box' ? null : count(match(words, '*'), key, nExact));
      const ids = nExact > 0 ? exactPage(key, take) : [];
      if (ids.length === take) return withRows(variant, search, ids, total());
      const whole = match(words, '');
      const inWords = walkTexts(words[0]!, whole, 'words', key, take - ids.length);
      if (inWords) return withRows(variant, search, [...ids, ...inWords], total());
      const nWords = Math.max(nExact, count(whole, key, nExact, wordsCap(take, accountContacts)));
      if (nWords !== nExact) return null;
      const last = walkTexts(words[0]!, match(words, '*'), 'prefix', key, take - ids.length);
      return last ? withRows(variant, search, [...ids, ...last], total()) : null;
    },
    split(search) {
      const words = searchWords(search);
      const key = quote(exactKey(search) ?? '');
      const take = 20;
      const nExact = Number(exactCount.get(accountId, key));
      if (nExact >= take) return null;
      const ids = nExact > 0 ? exactPage(key, take) : [];
      const prefix = match(words, '*');
      const got = splitWords(words, prefix, match(words, ''), key, take - ids.length);
      if (!got) return null;
      const missed = nExact > 0 ? Number(exactMissed.get(accountId, key, prefix)) : 0;
      return withRows('relevance', search, [...ids, ...got.ids], got.n + missed);
    },
  };
}
