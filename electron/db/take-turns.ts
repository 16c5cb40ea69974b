/**
 * Writes of one key taking turns: on PostgreSQL a transaction-scoped advisory lock on the key,
 * held until the transaction ends, so a look-then-insert by a key (a window's entry key, a file's
 * hash) sees the other's insert instead of racing it; on SQLite nothing, its writes being one
 * transaction at a time already.
 */
import { sql } from 'kysely';
import type { Engine } from './migration-types.ts';
import type { Db } from './store.ts';

export async function takeTurnsOn(trx: Db, engine: Engine, key: string): Promise<void> {
  if (engine === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
