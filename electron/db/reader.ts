/**
 * A reading connection of a worker thread's own to the store's database (Store.readerSpec):
 * the worker's reads neither wait for the server's event loop nor block it, and whatever they
 * allocate is the worker's. It can only read: SQLite with `query_only`, PostgreSQL with
 * read-only transactions.
 */
import { connect, kyselyOver } from './sqlite/connection.ts';
import { openPostgresReader } from './postgres/open.ts';
import type { Db, ReaderSpec } from './store.ts';

export interface Reader {
  db: Db;
  close(): Promise<void>;
}

/** `cacheMiB`: SQLite's page cache for this connection (the store's own keeps its 64 MiB). */
export function openReader(spec: ReaderSpec, opts: { cacheMiB?: number } = {}): Reader {
  if (spec.engine === 'postgres') return openPostgresReader(spec.url);
  const raw = connect(spec.file, { cacheMiB: opts.cacheMiB ?? 16 });
  raw.pragma('query_only = ON');
  const db = kyselyOver(raw);
  return { db, close: () => db.destroy() };
}
