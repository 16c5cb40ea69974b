/**
 * A create that carries a GiftDesk sync reference (`gd:<local id>`: a gift's notes' last line,
 * a contact's last `gd:` tag; #shared/sync-reference.ts) the account already holds answers with
 * that record instead of adding one. `donation_sync_references` and `contact_sync_references`
 * hold the reference each record was created with, keyed by (account_id, reference), so two
 * racing creates with one reference cannot both commit; a record's reference goes with it
 * (on delete cascade).
 *
 * Tables of their own rather than a column: the backfill of an HQ's million gifts is then one
 * INSERT into a narrow new table and its key built once, instead of an UPDATE of every gift
 * and contact row (which on PostgreSQL rewrites each row and every index entry of it: 10.5 s
 * per 100,000 gifts and 18.5 s per 100,000 contacts on the loaded bench machine).
 *
 * Existing records get the reference their notes or tags carry, by the same rule in SQL (its
 * test checks it agrees with the parser). Where several records of an account already carry
 * one reference (a create that landed twice before this), only the earliest (created_at, then
 * id) gets it. Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1940-sync-reference-unique';

/** The id characters of a reference, for SQLite's trim. */
const ID_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const [table, column, parent] of [
        ['donation_sync_references', 'donation_id', 'donations'],
        ['contact_sync_references', 'contact_id', 'contacts'],
      ] as const)
        await db.schema
          .createTable(table)
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('reference', 'text', (c) => c.notNull())
          .addColumn(column, 'text', (c) => c.notNull().references(`${parent}.id`).onDelete('cascade'))
          .execute();

      if (engine === 'postgres') {
        // A gift's reference: the notes' last line, when it is `gd:` + an id and nothing else
        // (spaces, tabs, a carriage return around it aside).
        await sql`insert into donation_sync_references (account_id, reference, donation_id)
            select distinct on (account_id, ref) account_id, ref, id
            from (
              select id, account_id, created_at,
                (regexp_match(notes, '(?:^|\n)[ \t\r]*(gd:[0-9A-Za-z_]+)[ \t\r]*$'))[1] as ref
              from donations where notes like '%gd:%'
            ) r
            where ref is not null
            order by account_id, ref, created_at, id`.execute(db);
        // A contact's reference: its last tag that is `gd:` (any case) + an id (tags are stored trimmed).
        await sql`insert into contact_sync_references (account_id, reference, contact_id)
            select distinct on (account_id, ref) account_id, ref, id
            from (
              select c.id, c.account_id, c.created_at,
                (select 'gd:' || substr(t.tag, 4)
                   from jsonb_array_elements_text(c.tags::jsonb) with ordinality t(tag, n)
                   where t.tag ~* '^gd:[0-9A-Za-z_]+$'
                   order by t.n desc limit 1) as ref
              from contacts c where c.tags ilike '%gd:%'
            ) r
            where ref is not null
            order by account_id, ref, created_at, id`.execute(db);
      } else {
        // The same rules without regular expressions: strip the trailing blanks, then the
        // trailing id characters (at least one); what is left must end with `gd:`, preceded by
        // nothing but blanks back to a line break or the start.
        const blanks = sql.lit(' \t\r');
        const ids = sql.lit(ID_CHARS);
        await sql`insert into donation_sync_references (account_id, reference, donation_id)
            with s as (
              select id, account_id, created_at, rtrim(notes, ${blanks}) as s
              from donations where notes like '%gd:%'
            ), r as (
              select id, account_id, created_at, s, rtrim(s, ${ids}) as r from s
            ), refs as (
              select id, account_id, created_at, 'gd:' || substr(s, length(r) + 1) as ref
              from r
              where length(s) > length(r)
                and substr(r, -3) = 'gd:'
                and (rtrim(substr(r, 1, length(r) - 3), ${blanks}) = ''
                  or substr(rtrim(substr(r, 1, length(r) - 3), ${blanks}), -1) = char(10))
            ), firsts as (
              select id, account_id, ref, row_number() over (partition by account_id, ref order by created_at, id) as n
              from refs
            )
            select account_id, ref, id from firsts where n = 1 order by account_id, ref`.execute(db);
        await sql`insert into contact_sync_references (account_id, reference, contact_id)
            with refs as (
              select c.id, c.account_id, c.created_at,
                (select 'gd:' || substr(j.value, 4) from json_each(c.tags) j
                   where j.type = 'text' and lower(substr(j.value, 1, 3)) = 'gd:' and length(j.value) > 3
                     and substr(j.value, 4) not glob '*[^0-9A-Za-z_]*'
                   order by j.key desc limit 1) as ref
              from contacts c where c.tags like '%gd:%'
            ), firsts as (
              select id, account_id, ref, row_number() over (partition by account_id, ref order by created_at, id) as n
              from refs where ref is not null
            )
            select account_id, ref, id from firsts where n = 1 order by account_id, ref`.execute(db);
      }

      // The keys after the fill: built once, sorted.
      for (const [table, column] of [
        ['donation_sync_references', 'donation_id'],
        ['contact_sync_references', 'contact_id'],
      ] as const) {
        await db.schema
          .createIndex(`${table}_reference`)
          .on(table)
          .columns(['account_id', 'reference'])
          .unique()
          .execute();
        // A record's delete finds its reference (the cascade) through this.
        await db.schema.createIndex(`${table}_record`).on(table).column(column).execute();
      }
    },
  };
}
