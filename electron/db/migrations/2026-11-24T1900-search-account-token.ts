/**
 * Contact search counts within the full-text index alone (bench/RESULTS.md, "Where a goal is
 * missed"): the account goes into the index, so a search's match set and its total are an
 * intersection of the index's own lists, with no lookup of each match's row in `contacts`.
 *
 * SQLite: `contacts_fts` gains an `account` column holding one token per contact, the hex
 * of its account id (letters and digits only, so the tokenizer keeps it whole and no two
 * accounts share one). The table is contentless, so it is recreated and refilled from
 * `contacts` here, and its triggers fill the new column (an account change, should one ever
 * happen, re-indexes the row). Searches put their words in a column filter over the other
 * three columns, so a word never matches the account token.
 *
 * PostgreSQL: nothing changes (its search is a tsvector index, untouched). Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-24T1900-search-account-token';

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== 'sqlite') return;
      await sql`drop trigger if exists contacts_fts_insert`.execute(db);
      await sql`drop trigger if exists contacts_fts_delete`.execute(db);
      await sql`drop trigger if exists contacts_fts_update`.execute(db);
      await sql`drop table if exists contacts_fts`.execute(db);
      await sql`create virtual table contacts_fts using fts5(
          name, email, organization, account,
          content='', contentless_delete=1,
          tokenize="unicode61 remove_diacritics 2")`.execute(db);
      const row = (r: 'new' | 'old' | 'contacts') =>
        sql.raw(`${r}.seq,
          ${r}.first_name || ' ' || coalesce(${r}.middle_name, '') || ' ' || ${r}.last_name,
          coalesce(${r}.email, '') || ' ' || coalesce(${r}.primary_email, ''),
          coalesce(${r}.organization, ''),
          hex(${r}.account_id)`);
      await sql`insert into contacts_fts(rowid, name, email, organization, account)
          select ${row('contacts')} from contacts order by seq`.execute(db);
      await sql`create trigger contacts_fts_insert after insert on contacts begin
          insert into contacts_fts(rowid, name, email, organization, account) values (${row('new')});
        end`.execute(db);
      await sql`create trigger contacts_fts_delete after delete on contacts begin
          delete from contacts_fts where rowid = old.seq;
        end`.execute(db);
      await sql`create trigger contacts_fts_update
          after update of first_name, middle_name, last_name, email, primary_email, organization, account_id
          on contacts begin
          delete from contacts_fts where rowid = old.seq;
          insert into contacts_fts(rowid, name, email, organization, account) values (${row('new')});
        end`.execute(db);
      // One b-tree per level instead of the many small segments a bulk fill leaves.
      await sql`insert into contacts_fts(contacts_fts) values ('optimize')`.execute(db);
    },
  };
}
