/**
 * The seam between the domain and a storage engine (as Actual's platform/sqlite is):
 * one Kysely handle typed by `Database`, plus the few things only an engine knows how to do.
 */
import type { Kysely, RawBuilder } from 'kysely';
import type { ChangeSignal } from './change-signal.ts';
import type { ContactSearch } from './contact-search.ts';
import type { Engine } from './migration-types.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export type TimeUnit = 'hour' | 'day';

/**
 * Where a worker thread opens a reading connection of its own to the same database
 * (reader.ts). It holds the PostgreSQL URL with its password: never log it.
 */
export type ReaderSpec = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };

export interface WriteMode {
  /**
   * A large write (an import chunk): it gets a transaction of its own instead of sharing a
   * group commit. Same guarantees; on SQLite it runs without the per-item savepoint, whose
   * sub-journal copies every page the chunk touches.
   */
  bulk?: boolean;
  /**
   * With `bulk`: a write that may be lost to a power cut until the next synced commit, and
   * only that way — a page of the hub's feed at a station catching up, which moves the feed's
   * cursor with it, so a page lost is read again. On SQLite its commit is not synced by itself
   * (synchronous=NORMAL for that commit): a process killed keeps it, a power cut may take it
   * back, never half of it, and the next synced commit (any other write) or closing the store
   * makes it durable. Nothing anyone was told is saved may use it. Other engines sync it.
   */
  unsynced?: boolean;
}

export interface Store {
  readonly engine: Engine;
  /** For reads. Writes go through `write`. */
  readonly db: Db;
  /**
   * Runs `fn` in a write transaction. When it resolves, the write is durable (committed and
   * synced). When `fn` throws, nothing it wrote remains. Concurrent calls may share one
   * commit (group commit) but never see each other's partial work.
   */
  write<T>(fn: (trx: Db) => Promise<T>, opts?: WriteMode): Promise<T>;
  /** Contact search, as this engine does it (see ContactSearch). */
  readonly search: ContactSearch;
  /**
   * The start of the UTC hour or day a timestamp column falls in, as the canonical
   * `YYYY-MM-DDTHH:MM:SS.mmmZ` text, for GROUP BY (gifts over time). `column` is a Kysely
   * reference such as `'d.donationDate'`.
   */
  timeBucket(column: string, unit: TimeUnit): RawBuilder<string>;
  /** A consistent copy of the whole database in `file` (SQLite online backup). */
  backupTo(file: string): Promise<void>;
  /** Finishes queued writes and closes the engine. */
  close(): Promise<void>;
  /** A description for logs, without credentials. */
  readonly location: string;
  /** Who wrote since this process started, for open screens to read again (change-signal.ts). */
  readonly changes: ChangeSignal;
  /** Where a worker thread may open a reader of its own; absent: it may not (the work stays here). */
  readerSpec?(): ReaderSpec;
}
