/**
 * Named prepared statements on PostgreSQL for the few statements every gift runs (the API
 * key's row, the rate-limit bucket, the gift's lookups and its write) and the reads a save in
 * gift entry answers with (the gift, its batch, the sync status). PostgreSQL plans an
 * unnamed statement each time it is sent, and for the gift's write that planning cost more
 * than running it (bench/RESULTS.md, POST /donations on PostgreSQL); a named one is parsed and
 * planned once per connection and then only bound and run.
 *
 * A statement asks for it by starting with NAMED (`named(text)`, or `reusable(…, { named: true })`);
 * every other statement goes unnamed as before, so what a plan cached per connection could
 * get wrong (a generic plan for a search's skewed words) never applies to them.
 *
 * A statement is named only outside a transaction. Behind a pooler that does not keep named
 * statements (PgBouncer in transaction mode before 1.21, or with `max_prepared_statements = 0`),
 * the statement's Bind reaches a server connection that never saw its Parse and PostgreSQL
 * answers 26000 (or 42P05, a name prepared twice); nothing ran, so the statement is sent again
 * unnamed, and this process names nothing more. `GIFTDESK_PG_NAMED_STATEMENTS=off` turns it off
 * from the start.
 */
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { NAMED } from '../named.ts';

/** The pooler refused a named statement: it did not run. */
const POOLER_REFUSED = new Set(['26000', '42P05']);

export function namedStatementPool(
  pool: pg.Pool,
  opts: { enabled: boolean; onRefused?: (code: string) => void },
): PostgresPool {
  /** False from the start when turned off, and after a pooler refused a named statement. */
  let active = opts.enabled;
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `gd_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (wrapper) return wrapper;
    let inTransaction = false;
    const unnamed = async (text: string, values: readonly unknown[]) =>
      (await client.query(text, values as unknown[])) as unknown as PostgresQueryResult<unknown>;
    const query = async (text: string, values: readonly unknown[]): Promise<PostgresQueryResult<unknown>> => {
      const head = text.slice(0, 24).trimStart().toLowerCase();
      if (/^(begin|start transaction)\b/.test(head)) inTransaction = true;
      else if (/^(commit|end|rollback)\b/.test(head) && !/^rollback\s+to\b/.test(head)) inTransaction = false;
      if (!active || inTransaction || !text.startsWith(NAMED)) return unnamed(text, values);
      try {
        return (await client.query({
          name: nameOf(text),
          text,
          values: values as unknown[],
        })) as unknown as PostgresQueryResult<unknown>;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code !== 'string' || !POOLER_REFUSED.has(code)) throw err;
        if (active) {
          active = false;
          opts.onRefused?.(code);
        }
        return unnamed(text, values);
      }
    };
    wrapper = {
      query: ((textOrCursor: unknown, values?: readonly unknown[]) =>
        typeof textOrCursor === 'string'
          ? query(textOrCursor, values ?? [])
          : client.query(textOrCursor as never)) as PostgresPoolClient['query'],
      release: () => client.release(),
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
