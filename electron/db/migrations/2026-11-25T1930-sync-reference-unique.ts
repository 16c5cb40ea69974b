/**
 * A create that carries a GiftDesk sync reference (`gd:<local id>`: a gift's notes' last line,
 * a contact's last `gd:` tag; #shared/sync-reference.ts) the account already holds answers with
 * that record instead of adding one. `sync_reference` on donations and contacts holds the
 * reference a record was created with, unique per account (partial index: null for the rest),
 * so two racing creates with one reference cannot both commit.
 *
 * Existing records get the reference their notes or tags carry, by the same rule in SQL (its
 * test checks it agrees with the parser). Where several records of an account already carry
 * one reference (a create that landed twice before this), only the earliest (created_at, then
 * id) gets it: the later ones stay as they are, with no reference. Adding the nullable column
 * rewrites nothing; the backfill is one UPDATE per table and one index build (bench figures
 * in the commit that added this). Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1930-sync-reference-unique';

/** The id characters of a reference, for SQLite's trim and glob. */
const ID_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['donations', 'contacts'])
        await db.schema.alterTable(table).addColumn('sync_reference', 'text').execute();

      if (engine === 'postgres') {
        // A gift's reference: the notes' last line, when it is `gd:` + an id and nothing else
        // (spaces, tabs, a carriage return around it aside).
        await sql`update donations d set sync_reference = f.ref
            from (
              select distinct on (account_id, ref) id, ref
              from (
                select id, account_id, created_at,
                  (regexp_match(notes, '(?:^|\n)[ \t\r]*(gd:[0-9A-Za-z_]+)[ \t\r]*$'))[1] as ref
                from donations where notes like '%gd:%'
              ) r
              where ref is not null
              order by account_id, ref, created_at, id
            ) f
            where d.id = f.id`.execute(db);
        // A contact's reference: its last tag that is `gd:` (any case) + an id (tags are stored trimmed).
        await sql`update contacts c set sync_reference = f.ref
            from (
              select distinct on (account_id, ref) id, ref
              from (
                select c2.id, c2.account_id, c2.created_at,
                  (select 'gd:' || substr(t.tag, 4)
                     from jsonb_array_elements_text(c2.tags::jsonb) with ordinality t(tag, n)
                     where t.tag ~* '^gd:[0-9A-Za-z_]+$'
                     order by t.n desc limit 1) as ref
                from contacts c2 where c2.tags ilike '%gd:%'
              ) r
              where ref is not null
              order by account_id, ref, created_at, id
            ) f
            where c.id = f.id`.execute(db);
      } else {
        // The same rules without regular expressions: strip the trailing blanks, then the
        // trailing id characters (at least one); what is left must end with `gd:`, preceded by
        // nothing but blanks back to a line break or the start.
        const blanks = sql.lit(' \t\r');
        const ids = sql.lit(ID_CHARS);
        await sql`with s as (
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
              select id, ref, row_number() over (partition by account_id, ref order by created_at, id) as n
              from refs
            )
            update donations set sync_reference = firsts.ref
            from firsts where firsts.n = 1 and donations.id = firsts.id`.execute(db);
        await sql`with refs as (
              select c.id, c.account_id, c.created_at,
                (select 'gd:' || substr(j.value, 4) from json_each(c.tags) j
                   where j.type = 'text' and lower(substr(j.value, 1, 3)) = 'gd:' and length(j.value) > 3
                     and substr(j.value, 4) not glob '*[^0-9A-Za-z_]*'
                   order by j.key desc limit 1) as ref
              from contacts c where c.tags like '%gd:%'
            ), firsts as (
              select id, ref, row_number() over (partition by account_id, ref order by created_at, id) as n
              from refs where ref is not null
            )
            update contacts set sync_reference = firsts.ref
            from firsts where firsts.n = 1 and contacts.id = firsts.id`.execute(db);
      }

      for (const table of ['donations', 'contacts'])
        await db.schema
          .createIndex(`${table}_account_sync_reference`)
          .on(table)
          .columns(['account_id', 'sync_reference'])
          .unique()
          .where(sql.ref('sync_reference'), 'is not', null)
          .execute();
    },
  };
}
