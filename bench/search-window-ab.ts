/**
 * The spec-order contact search in process on the bench/search-sqlite.ts file (built by it; run that first),
 * interleaved on the same searches: as listContacts does it now (count + page through the order's window + rows),
 * against the same count and rows with the previous page plan (the whole match set probed from the order's index),
 * and the raw FTS5 prefix query (50 rowids + count). Both plans must give the same page.
 *
 *   node --import tsx bench/search-window-ab.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../electron/db/open.ts';
import { searchWords } from '../electron/db/contact-search.ts';
import { listContacts } from '../electron/domain/contacts/index.ts';
import { pageFromOrderIndex } from '../electron/domain/contacts/search.ts';
import { createContext } from '../electron/domain/context.ts';
const dir = 'bench/.work/search-sqlite';
const { accountId } = JSON.parse(fs.readFileSync(dir + '/search-bench.json', 'utf8'));
const store = await openStore({ dataDir: dir });
const ctx = createContext(store);
const raw = new BetterSqlite3(dir + '/giftdesk.sqlite', { readonly: true });
const rawPage = raw.prepare('select rowid from contacts_fts where contacts_fts match ? limit 50');
const rawCount = raw.prepare('select count(*) from contacts_fts where contacts_fts match ?').pluck();
const SEARCHES = [
  'jan',
  'jane',
  'tanaka1234',
  'jane smith',
  'jose gar',
  'zoe',
  'example42',
  'walker4',
  'jane smith1234',
  'zoe tanaka',
];
const pct = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  return `p50 ${at(50).toFixed(1)} p95 ${at(95).toFixed(1)}`;
};
async function before(s: string) {
  const total = (await store.search.count(s, accountId))!;
  const n = (
    await sql<{
      n: number;
    }>`select coalesce(sum(contacts), 0) as n from account_counter_slots where account_id = ${accountId}`.execute(
      store.db,
    )
  ).rows[0]!.n;
  const cond = store.search.condition(
    s,
    accountId,
    pageFromOrderIndex(total, 20, Number(n)) ? 'order' : 'match',
  )!;
  const ids = (
    await sql<{
      id: string;
    }>`select contacts.id from contacts where ${cond} order by contacts.created_at desc, contacts.id desc limit 20`.execute(
      store.db,
    )
  ).rows.map((r) => r.id);
  await store.db
    .selectFrom('contacts')
    .select([
      'id',
      'accountId',
      'firstName',
      'lastName',
      'email',
      'phone',
      'organization',
      'createdAt',
      'updatedAt',
    ])
    .where('id', 'in', ids)
    .execute();
  return ids;
}
console.log(
  'load',
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' '),
);
const A: number[] = [],
  B: number[] = [],
  R: number[] = [];
for (let round = 0; round <= 10; round++) {
  for (const s of SEARCHES) {
    let t = performance.now();
    const now = (await listContacts(ctx, { accountId, search: s })).data.map((d) => d.id);
    const a = performance.now() - t;
    t = performance.now();
    const old = await before(s);
    const b = performance.now() - t;
    const m = `{name email organization} : (${searchWords(s)
      .map((w) => `"${w}"*`)
      .join(' AND ')})`;
    t = performance.now();
    rawPage.all(m);
    rawCount.get(m);
    const r = performance.now() - t;
    if (JSON.stringify(now) !== JSON.stringify(old)) throw new Error(`${s}: pages differ`);
    if (round > 0) {
      A.push(a);
      B.push(b);
      R.push(r);
    }
  }
}
console.log(
  `spec order, in process: now ${pct(A)} | previous page plan ${pct(B)} | raw FTS5 50 + count ${pct(R)}`,
);
console.log(
  'load',
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' '),
);
await store.close();
