/**
 * The people who sign in to a shared server (HQ) with an email and a password. Frozen once
 * shipped.
 *
 * - `users`: a person of an account. `email` as typed (trimmed); `email_key` the same in lower
 *   case, unique per account, so "Ann@Example.org " and "ann@example.org" are one person.
 *   `password_hash` is null until the person sets a password through their one-time link;
 *   `disabled_at` set: they cannot sign in and their sessions are refused.
 * - `user_password_tokens`: the one-time links that set a password, by the hash of the token
 *   (the token itself is shown once), with when they expire and when they were used.
 * - `sign_in_failures`: each refused sign-in, by the source address and the email tried, so
 *   the throttle survives a restart and is shared by every server on the database.
 * - `api_keys.user_id`: the person a sign-in session key belongs to (null for every other key).
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-02T0400-people-users';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('disabled_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('users_account_email')
        .on('users')
        .columns(['account_id', 'email_key'])
        .unique()
        .execute();
      await db.schema.createIndex('users_email_key').on('users').column('email_key').execute();
      await db.schema
        .createTable('user_password_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('user_password_tokens_user')
        .on('user_password_tokens')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_failures_address')
        .on('sign_in_failures')
        .columns(['address', 'at'])
        .execute();
      await db.schema
        .createIndex('sign_in_failures_email')
        .on('sign_in_failures')
        .columns(['email_key', 'at'])
        .execute();
      await db.schema.alterTable('api_keys').addColumn('user_id', 'text').execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
    },
  };
}
