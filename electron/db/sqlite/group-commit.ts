/**
 * SQLite's group commit: writes that arrive while a commit is being synced share the next
 * commit, each inside its own savepoint (one write's failure undoes its own work only). A bulk
 * write gets a transaction of its own. A write's promise resolves once its commit is synced.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import type { Db, WriteMode } from '../store.ts';

export interface GroupCommit {
  /** Store.write: queued, committed with the writes queued beside it. */
  write<T>(fn: (trx: Db) => Promise<T>, mode?: WriteMode): Promise<T>;
  /** Refuses further writes and waits until every queued one is committed or refused. */
  finish(): Promise<void>;
}

interface Pending {
  fn: (trx: Db) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  bulk: boolean;
  unsynced: boolean;
}

/** The writes of one connection (`raw` is the connection under `db`, to ask whether a transaction is open). */
export function groupCommit(db: Db, raw: BetterSqlite3.Database): GroupCommit {
  // The group commit's own statements, compiled once (each is run for every write).
  const stmt = {
    begin: CompiledQuery.raw('begin immediate'),
    commit: CompiledQuery.raw('commit'),
    rollback: CompiledQuery.raw('rollback'),
    savepoint: CompiledQuery.raw('savepoint gd_write'),
    release: CompiledQuery.raw('release gd_write'),
    rollbackTo: CompiledQuery.raw('rollback to gd_write'),
  };
  let queue: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  /**
   * A bulk write: a transaction of its own, no savepoint (all of it or none of it). An
   * unsynced one commits without syncing (WAL with synchronous=NORMAL: the commit is whole or
   * absent after a power cut); the connection's own setting is back before the next write.
   */
  async function runAlone(item: Pending): Promise<void> {
    let value: unknown;
    const synchronous = item.unsynced ? Number(raw.pragma('synchronous', { simple: true })) : null;
    if (synchronous !== null) raw.pragma('synchronous = NORMAL');
    try {
      await db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          value = await item.fn(conn);
          await sql`commit`.execute(conn);
        } catch (err) {
          if (raw.inTransaction) await sql`rollback`.execute(conn);
          throw err;
        }
      });
    } catch (err) {
      item.reject(err);
      return;
    } finally {
      if (synchronous !== null) raw.pragma(`synchronous = ${synchronous}`);
    }
    item.resolve(value);
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      if (queue[0]!.bulk) {
        await runAlone(queue.shift()!);
        continue;
      }
      // The group: every item up to the next bulk write.
      const cut = queue.findIndex((item) => item.bulk);
      const batch = cut < 0 ? queue : queue.slice(0, cut);
      queue = cut < 0 ? [] : queue.slice(cut);
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      try {
        await db.connection().execute(async (conn) => {
          await conn.executeQuery(stmt.begin);
          try {
            for (const item of batch) {
              await conn.executeQuery(stmt.savepoint);
              try {
                const value = await item.fn(conn);
                await conn.executeQuery(stmt.release);
                outcomes.push({ ok: true, value });
              } catch (error) {
                // Disk full or an I/O error can make SQLite roll the whole transaction back
                // by itself: then nothing in this batch was saved, and every item is told so.
                if (!raw.inTransaction) throw error;
                await conn.executeQuery(stmt.rollbackTo);
                await conn.executeQuery(stmt.release);
                outcomes.push({ ok: false, error });
              }
            }
            await conn.executeQuery(stmt.commit);
          } catch (err) {
            if (raw.inTransaction) await conn.executeQuery(stmt.rollback);
            throw err;
          }
        });
      } catch (err) {
        // The commit itself failed (disk full, I/O error): nothing in the batch was saved.
        for (const item of batch) item.reject(err);
        continue;
      }
      batch.forEach((item, i) => {
        const o = outcomes[i];
        if (o?.ok) item.resolve(o.value);
        else item.reject(o?.error);
      });
    }
  }

  function schedule(): void {
    if (flushing) return;
    flushing = new Promise<void>((done) => setImmediate(done)).then(flush).finally(() => {
      flushing = null;
      if (queue.length > 0) schedule();
    });
  }

  return {
    write<T>(fn: (trx: Db) => Promise<T>, mode?: WriteMode): Promise<T> {
      if (closed) return Promise.reject(new Error('database is closed'));
      return new Promise<T>((resolve, reject) => {
        queue.push({
          fn,
          resolve: resolve as (v: unknown) => void,
          reject,
          bulk: mode?.bulk === true,
          unsynced: mode?.bulk === true && mode.unsynced === true,
        });
        schedule();
      });
    },
    async finish(): Promise<void> {
      closed = true;
      while (flushing) await flushing;
    },
  };
}
