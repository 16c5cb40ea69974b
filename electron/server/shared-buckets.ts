/**
 * The rate limit's token buckets in PostgreSQL, so that every HQ server on one database
 * spends the same bucket: a key limited to 20 a second is limited to 20 a second behind a load
 * balancer, whichever server each request reaches. The same rule as token-bucket.ts (`rate`
 * tokens a second, up to `burst`), taken in one statement per request: an upsert whose update
 * refills the row by the time passed and takes a token when there is one, under the row's
 * lock, so two servers taking from one bucket at once take turns and never both spend its
 * last token.
 *
 * Time is each server's clock (Unix milliseconds). A bucket's time only moves forward
 * (`greatest`), so a server whose clock is behind another's refills nothing until it catches
 * up: a skew between servers slows the refill by at most the skew and never adds tokens.
 * Buckets idle long enough to be full again are deleted now and then (a bucket not found
 * starts full, which is the same thing).
 */
import { sql } from 'kysely';
import { NAMED } from '../db/named.ts';
import type { Db } from '../db/store.ts';
import { type BucketOptions, type TakeResult, takeResult } from './token-bucket.ts';

/** Idle buckets are swept at most this often, per bucket set and process. */
const SWEEP_EVERY_MS = 60_000;

export interface SharedBuckets {
  take(key: string): Promise<TakeResult>;
}

/**
 * Buckets named `<set>:<key>` in rate_buckets. Each set (`api`, `station`) has its own rate
 * and burst; every server must be started with the same ones (`serve --rate --burst`).
 */
export function createSharedBuckets(db: Db, set: string, opts: BucketOptions): SharedBuckets {
  const now = opts.now ?? Date.now;
  const rate = opts.ratePerSecond;
  const burst = opts.burst;
  let swept = 0;
  const sweep = (t: number) => {
    if (t - swept < SWEEP_EVERY_MS) return;
    swept = t;
    // Idle for burst/rate seconds: full again, as good as absent.
    const cutoff = Math.floor(t - (burst / rate) * 1000);
    void sql`delete from rate_buckets where bucket like ${`${set}:%`} and at_ms < ${cutoff}`
      .execute(db)
      .catch(() => undefined);
  };
  return {
    async take(key) {
      const t = Math.floor(now());
      // The refilled count, from the row as it was (an UPDATE's SET reads the old row).
      const refilled = sql`least(${burst}::float8, b.tokens + greatest(0, ${t}::bigint - b.at_ms) / 1000.0 * ${rate}::float8)`;
      // Every request runs it: a named prepared statement on PostgreSQL.
      const { rows } = await sql<{ tokens: number; atMs: number; allowed: number }>`${sql.raw(NAMED)}
        insert into rate_buckets as b (bucket, tokens, at_ms, allowed)
        values (${`${set}:${key}`}, ${burst - 1}::float8, ${t}::bigint, 1)
        on conflict (bucket) do update set
          tokens = ${refilled} - case when ${refilled} >= 1 then 1 else 0 end,
          at_ms = greatest(b.at_ms, ${t}::bigint),
          allowed = case when ${refilled} >= 1 then 1 else 0 end
        returning tokens, at_ms, allowed`.execute(db);
      const row = rows[0]!;
      sweep(t);
      return takeResult(opts, Number(row.tokens), row.allowed === 1, Math.max(t, Number(row.atMs)));
    },
  };
}
