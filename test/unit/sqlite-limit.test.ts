/**
 * The SQLite connection sends a bound LIMIT as `limit +?` (connection.ts: limitNotPlanned), so
 * SQLite does not plan with the bound value and prepare the statement again at every run. The
 * rows must be the ones the bound LIMIT and OFFSET ask for, through Kysely's `.limit()` and
 * the app's own SQL alike, with one cached statement whatever the values.
 */
import { type Kysely, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { limitNotPlanned } from '../../electron/db/sqlite/connection.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { freshDatabase } from '../helpers/server.ts';

let done: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of done) await d();
  done = [];
});

it('writes a bound LIMIT as `limit +?` and leaves every other text as it is', () => {
  expect(limitNotPlanned('select a from t order by a limit ? offset ?')).toBe(
    'select a from t order by a limit +? offset ?',
  );
  expect(limitNotPlanned('SELECT a FROM t LIMIT ?')).toBe('SELECT a FROM t LIMIT +?');
  expect(limitNotPlanned('select (select a from t limit ?) as x from u limit ?')).toBe(
    'select (select a from t limit +?) as x from u limit +?',
  );
  for (const same of ['select a from t limit 5', 'select a from t limit -1', 'select unlimit ? from t'])
    expect(limitNotPlanned(same)).toBe(same);
});

it("returns the rows every bound limit and offset ask for, through Kysely's .limit() and raw SQL", async () => {
  const fresh = await freshDatabase('sqlite');
  const store: Store = await openSqlite({ file: `${fresh.dataDir}/giftdesk.sqlite` });
  done.push(async () => {
    await store.close();
    await fresh.drop();
  });
  await sql`create temp table numbers (n integer primary key)`.execute(store.db);
  for (let n = 0; n < 10; n++) await sql`insert into numbers (n) values (${n})`.execute(store.db);
  const typed = store.db as unknown as Kysely<{ numbers: { n: number } }>;
  for (const limit of [0, 1, 3, 10, 25, -1]) {
    for (const offset of [0, 2, 9, 12]) {
      const want = Array.from({ length: 10 }, (_, i) => i).slice(
        offset,
        limit < 0 ? undefined : offset + limit,
      );
      const built = await typed
        .selectFrom('numbers')
        .select('n')
        .orderBy('n')
        .limit(limit)
        .offset(offset)
        .execute();
      const raw = await sql<{
        n: number;
      }>`select n from numbers order by n limit ${limit} offset ${offset}`.execute(store.db);
      // In a subquery too, as the search writes its pages.
      const nested = await sql<{ ns: string }>`select json_group_array(n) as ns from
        (select n from numbers order by n desc limit ${limit} offset ${offset})`.execute(store.db);
      expect(
        built.map((r) => r.n),
        `limit ${limit} offset ${offset}`,
      ).toEqual(want);
      expect(raw.rows.map((r) => r.n)).toEqual(want);
      expect(JSON.parse(nested.rows[0]!.ns)).toEqual(
        [...Array.from({ length: 10 }, (_, i) => 9 - i)].slice(
          offset,
          limit < 0 ? undefined : offset + limit,
        ),
      );
    }
  }
});
