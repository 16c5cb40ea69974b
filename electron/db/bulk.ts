/**
 * Statements built once and run many times: bulk paths (imports, demo data) pay Kysely's
 * query building and compiling once per statement shape, not once per row. Engine-neutral:
 * the SQL is compiled by the handle's own dialect, so SQLite and PostgreSQL both work.
 */
import {
  type Compilable,
  type CompiledQuery,
  type Insertable,
  type QueryResult,
  SqliteAdapter,
} from 'kysely';
import type { Engine } from './migration-types.ts';
import { named } from './named.ts';
import type { Database } from './schema.ts';
import type { Db } from './store.ts';

const SENTINEL = '\u0000gd-param:';

/** A statement compiled once; run it with the values its placeholders stand for, in order. */
export type Prepared = (values: readonly unknown[]) => Promise<QueryResult<unknown>>;

/**
 * Compiles `build`'s query once. `build` receives `p(i)`, a stand-in for the i-th value of
 * each run; every value of the query must be one (constants included), or this throws.
 */
export function prepare(db: Db, build: (p: <T>(i: number) => T) => Compilable<unknown>): Prepared {
  const p = <T>(i: number): T => `${SENTINEL}${i}` as unknown as T; // a marker, replaced at each run
  const compiled: CompiledQuery<unknown> = build(p).compile();
  const slots = compiled.parameters.map((v) => {
    if (typeof v !== 'string' || !v.startsWith(SENTINEL))
      throw new Error(`prepare: every value must be a placeholder (got ${String(v)})`);
    return Number(v.slice(SENTINEL.length));
  });
  return (values) => db.executeQuery({ ...compiled, parameters: slots.map((i) => values[i]) });
}

/** A statement compiled once per dialect, run on any handle of that dialect (a transaction's too). */
export type Reusable = (db: Db, values: readonly unknown[]) => Promise<QueryResult<unknown>>;

/**
 * Like `prepare`, for the request path: `build` runs once per dialect (the first time a handle
 * of that dialect runs it), and each run substitutes its values into the compiled SQL and
 * executes it on the handle it is given, so a write's transaction can run it. Values that are
 * not placeholders stay as they were built (constants of the statement). Saves Kysely's
 * building, plugin pass and compiling on every request (bench/RESULTS.md, POST profile).
 */
export function reusable(
  build: (db: Db, p: <T>(i: number) => T) => Compilable<unknown>,
  opts: { named?: boolean } = {},
): Reusable {
  const p = <T>(i: number): T => `${SENTINEL}${i}` as unknown as T;
  const byAdapter = new WeakMap<
    object,
    { compiled: CompiledQuery<unknown>; slots: Array<{ at: number } | { value: unknown }> }
  >();
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let entry = byAdapter.get(adapter);
    if (!entry) {
      const built = build(db, p).compile();
      // On PostgreSQL a statement every request runs can be a named prepared statement.
      const compiled =
        opts.named && engineOf(db) === 'postgres' ? { ...built, sql: named(built.sql) } : built;
      const slots = compiled.parameters.map((v) =>
        typeof v === 'string' && v.startsWith(SENTINEL)
          ? { at: Number(v.slice(SENTINEL.length)) }
          : { value: v },
      );
      entry = { compiled, slots };
      byAdapter.set(adapter, entry);
    }
    const { compiled, slots } = entry;
    return db.executeQuery({
      ...compiled,
      parameters: slots.map((s) => ('at' in s ? values[s.at] : s.value)),
    });
  };
}

/** Which engine a handle (or a transaction's) runs on. */
export function engineOf(db: Db): Engine {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

/** At most this many values in one statement (SQLite allows 32766, PostgreSQL 65535). */
const MAX_PARAMS = 4000;
const MAX_ROWS = 128;

/** Compiled multi-row INSERTs, by dialect, table, columns and row count (a handful of each). */
const insertCache = new Map<string, CompiledQuery<unknown>>();

/** Which SQL the handle's dialect writes (its placeholders differ), for the cache key. */
function flavour(db: Db): string {
  return db.selectFrom('accounts').select('id').where('id', '=', '').compile().sql;
}

/**
 * Inserts `rows` (each an array of values in `columns` order) with multi-row INSERTs of
 * MAX_ROWS rows and power-of-two remainders, compiled once per shape and then reused.
 */
export async function insertMany<T extends keyof Database & string>(
  db: Db,
  table: T,
  columns: ReadonlyArray<keyof Insertable<Database[T]> & string>,
  rows: ReadonlyArray<readonly unknown[]>,
): Promise<void> {
  if (rows.length === 0) return;
  const perBatch = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
  const keyBase = `${flavour(db)}|${table}|${columns.join(',')}|`;
  const compiledFor = (n: number): CompiledQuery<unknown> => {
    const key = keyBase + n;
    let compiled = insertCache.get(key);
    if (!compiled) {
      const values = Array.from({ length: n }, () => Object.fromEntries(columns.map((c) => [c, null])));
      // The row objects are built from the table's own column names, so they are its Insertable.
      compiled = db
        .insertInto(table)
        .values(values as unknown as Insertable<Database[T]>[])
        .compile();
      if (compiled.parameters.length !== n * columns.length)
        throw new Error(`insertMany(${table}): unexpected statement shape`);
      insertCache.set(key, compiled);
    }
    return compiled;
  };
  let i = 0;
  while (i < rows.length) {
    const left = rows.length - i;
    const n = left >= perBatch ? perBatch : 2 ** Math.floor(Math.log2(left));
    const flat: unknown[] = new Array(n * columns.length);
    let k = 0;
    for (let r = i; r < i + n; r++) {
      const row = rows[r]!;
      if (row.length !== columns.length)
        throw new Error(`insertMany(${table}): a row has ${row.length} values for ${columns.length} columns`);
      for (const v of row) flat[k++] = v;
    }
    await db.executeQuery({ ...compiledFor(n), parameters: flat });
    i += n;
  }
}

/**
 * insertMany for row objects that all carry the same columns (as rows built by one
 * function do): the columns are the first row's keys.
 */
export async function insertObjects<T extends keyof Database & string>(
  db: Db,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  const first = rows[0];
  if (first === undefined) return;
  const columns = Object.keys(first) as Array<keyof Insertable<Database[T]> & string>;
  const values = rows.map((row) =>
    columns.map((c) => {
      const v = row[c];
      if (v === undefined) throw new Error(`insertObjects(${table}): a row has no value for ${c}`);
      return v;
    }),
  );
  await insertMany(db, table, columns, values);
}
