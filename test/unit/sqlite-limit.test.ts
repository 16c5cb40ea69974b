/**
 * The SQLite connection sends a bound LIMIT as `limit +?` (connection.ts: limitNotPlanned), so
 * SQLite does not plan with the bound value and prepare the statement again at every run. The
 * rows must be the ones the bound LIMIT and OFFSET ask for, through Kysely's `.limit()` and
 * the app's own SQL alike. (That the statement is no longer prepared again is a matter of
 * time, measured in bench/RESULTS.md, not here.)
 */
import { type Kysely, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { connect, kyselyOver, limitNotPlanned } from '../../electron/db/sqlite/connection.ts';
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

it("returns the rows every bound limit and offset ask for, through Kysely's .limit() and raw SQL, each prepared as `limit +?`", async () => {
  const fresh = await freshDatabase('sqlite');
  // The connection as the store opens it (connect, then kyselyOver), with the text SQLite is
  // given to prepare noted.
  const raw = connect(`${fresh.dataDir}/giftdesk.sqlite`, {});
  const prepared: string[] = [];
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof raw.prepare;
  const db = kyselyOver(raw);
  done.push(async () => {
    await db.destroy();
    await fresh.drop();
  });
  await sql`create table numbers (n integer primary key)`.execute(db);
  for (let n = 0; n < 10; n++) await sql`insert into numbers (n) values (${n})`.execute(db);
  const typed = db as unknown as Kysely<{ numbers: { n: number } }>;
  const upTo = (offset: number, limit: number) => (limit < 0 ? undefined : offset + limit);
  for (const limit of [0, 1, 3, 10, 25, -1]) {
    for (const offset of [0, 2, 9, 12]) {
      const want = Array.from({ length: 10 }, (_, i) => i).slice(offset, upTo(offset, limit));
      const built = await typed
        .selectFrom('numbers')
        .select('n')
        .orderBy('n')
        .limit(limit)
        .offset(offset)
        .execute();
      const plain = await sql<{
        n: number;
      }>`select n from numbers order by n limit ${limit} offset ${offset}`.execute(db);
      // In a subquery too, as the search writes its pages.
      const nested = await sql<{ ns: string }>`select json_group_array(n) as ns from
        (select n from numbers order by n desc limit ${limit} offset ${offset})`.execute(db);
      expect(
        built.map((r) => r.n),
        `limit ${limit} offset ${offset}`,
      ).toEqual(want);
      expect(plain.rows.map((r) => r.n)).toEqual(want);
      expect(JSON.parse(nested.rows[0]!.ns)).toEqual(
        Array.from({ length: 10 }, (_, i) => 9 - i).slice(offset, upTo(offset, limit)),
      );
    }
  }
  // Each of the three prepared once, whatever the values, and with its LIMIT out of the plan.
  const paged = prepared.filter((source) => /limit/i.test(source));
  expect(paged).toHaveLength(3);
  for (const source of paged) expect(source).toMatch(/limit \+\? offset \?/);
});
