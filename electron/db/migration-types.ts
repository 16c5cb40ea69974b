import type { Kysely } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/** A migration: runs in a transaction of its own, with its record, all or nothing. */
export interface Migration {
  up(db: Kysely<unknown>): Promise<void>;
}

export interface NamedMigration {
  name: string;
  migration: (engine: Engine) => Migration;
}
