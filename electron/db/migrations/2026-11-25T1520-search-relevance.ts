/**
 * Relevance-ranked contact search: the exact match of the whole typed text — full name
 * (either order), email, phone digits, organisation — becomes one index lookup on both
 * engines, and SQLite's full-text index gets a prefix index (a prefix search reads one
 * list instead of merging every word that starts with it).
 *
 * SQLite: a second contentless FTS5 table, `contacts_exact`, holds each contact's keys with
 * their separators taken out ("José Núñez" → one token `josénúñez`, folded by the tokenizer to `josenunez`; the
 * email `bob.brown@example.org` → `bobbrownexampleorg`; the phone `(555) 010-2233` →
 * `5550102233`). A full name is the whole stored name, middle name
 * included (first middle last, or last first middle). The search side joins its words the same way (store.ts `exactKey`), so an
 * exact match is one term of the index, without a prefix. Separators outside the list below
 * split the key into several tokens: such a contact is still found by its words, only not in
 * the exact tier. `contacts_fts` is recreated (contentless: refilled from `contacts`) with a
 * prefix index for prefixes of 2 to 6 characters.
 *
 * PostgreSQL: `contacts.search_keys text[]` holds the same keys, each prefixed with the
 * contact's account id (so one GIN lookup is both exact and account-scoped), kept by the
 * search trigger beside the tsvector. Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1520-search-relevance';

/** Characters a key drops in SQLite (everything else unicode61 would split on stays a split). */
const SEPARATORS = [' ', '-', '.', '@', '_', '+', '(', ')', "'", '\u2019', ',', '&', '/', '#', ':', ';', '"'];

/** A key's text with the separators taken out (migration search-fold-letters uses it too). */
export function strip(expr: string): string {
  let out = `coalesce(${expr}, '')`;
  for (const c of SEPARATORS) out = `replace(${out}, '${c === "'" ? "''" : c}', '')`;
  return out;
}

/** The `exact` column's text for a row alias: every key, separated by spaces. */
function sqliteKeys(r: string): string {
  return [
    `${r}.first_name || coalesce(${r}.middle_name, '') || ${r}.last_name`,
    `${r}.last_name || ${r}.first_name || coalesce(${r}.middle_name, '')`,
    `${r}.email`,
    `${r}.primary_email`,
    `${r}.organization`,
    `${r}.phone`,
    `${r}.primary_phone`,
  ]
    .map(strip)
    .join(` || ' ' || `);
}

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine === 'sqlite') {
        await sql`drop trigger if exists contacts_fts_insert`.execute(db);
        await sql`drop trigger if exists contacts_fts_delete`.execute(db);
        await sql`drop trigger if exists contacts_fts_update`.execute(db);
        await sql`drop table if exists contacts_fts`.execute(db);
        await sql`create virtual table contacts_fts using fts5(
            name, email, organization, account,
            content='', contentless_delete=1, prefix='2 3 4 5 6',
            tokenize="unicode61 remove_diacritics 2")`.execute(db);
        // A table of its own: a key such as `jane` (an organisation) is then one term with a
        // short list, not the list of every Jane's name filtered by column.
        await sql`create virtual table contacts_exact using fts5(
            exact, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2")`.execute(db);
        const row = (r: 'new' | 'contacts') =>
          sql.raw(`${r}.seq,
            ${r}.first_name || ' ' || coalesce(${r}.middle_name, '') || ' ' || ${r}.last_name,
            coalesce(${r}.email, '') || ' ' || coalesce(${r}.primary_email, ''),
            coalesce(${r}.organization, ''),
            hex(${r}.account_id)`);
        const keys = (r: 'new' | 'contacts') => sql.raw(`${r}.seq, ${sqliteKeys(r)}`);
        await sql`insert into contacts_fts(rowid, name, email, organization, account)
            select ${row('contacts')} from contacts order by seq`.execute(db);
        await sql`insert into contacts_exact(rowid, exact) select ${keys('contacts')} from contacts order by seq`.execute(
          db,
        );
        await sql`create trigger contacts_fts_insert after insert on contacts begin
            insert into contacts_fts(rowid, name, email, organization, account) values (${row('new')});
            insert into contacts_exact(rowid, exact) values (${keys('new')});
          end`.execute(db);
        await sql`create trigger contacts_fts_delete after delete on contacts begin
            delete from contacts_fts where rowid = old.seq;
            delete from contacts_exact where rowid = old.seq;
          end`.execute(db);
        await sql`create trigger contacts_fts_update
            after update of first_name, middle_name, last_name, email, primary_email, organization, phone, primary_phone, account_id
            on contacts begin
            delete from contacts_fts where rowid = old.seq;
            delete from contacts_exact where rowid = old.seq;
            insert into contacts_fts(rowid, name, email, organization, account) values (${row('new')});
            insert into contacts_exact(rowid, exact) values (${keys('new')});
          end`.execute(db);
        await sql`insert into contacts_fts(contacts_fts) values ('optimize')`.execute(db);
        await sql`insert into contacts_exact(contacts_exact) values ('optimize')`.execute(db);
        return;
      }
      // PostgreSQL: the keys beside the tsvector, one trigger for both.
      await sql`create or replace function contacts_search_key(t text) returns text language sql immutable as $$
          select regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, coalesce(t, ''))), '[^[:alnum:]]+', '', 'g')
        $$`.execute(db);
      await sql`create or replace function contacts_search_keys(c contacts) returns text[] language sql immutable as $$
          select array(select distinct c.account_id || ' ' || k from unnest(array[
            contacts_search_key(c.first_name || ' ' || coalesce(c.middle_name, '') || ' ' || c.last_name),
            contacts_search_key(c.last_name || ' ' || c.first_name || ' ' || coalesce(c.middle_name, '')),
            contacts_search_key(c.email), contacts_search_key(c.primary_email),
            contacts_search_key(c.organization), contacts_search_key(c.phone), contacts_search_key(c.primary_phone)]) k
            where k <> '')
        $$`.execute(db);
      await sql`alter table contacts add column search_keys text[]`.execute(db);
      await sql`create or replace function contacts_search_vector() returns trigger language plpgsql as $$
          begin
            new.search_vector := to_tsvector('simple', regexp_replace(lower(public.unaccent(
              coalesce(new.first_name, '') || ' ' || coalesce(new.middle_name, '') || ' ' ||
              coalesce(new.last_name, '') || ' ' || coalesce(new.email, '') || ' ' ||
              coalesce(new.primary_email, '') || ' ' || coalesce(new.organization, ''))),
              '[^[:alnum:]]+', ' ', 'g'));
            new.search_keys := contacts_search_keys(new);
            return new;
          end $$`.execute(db);
      await sql`drop trigger if exists contacts_search_vector on contacts`.execute(db);
      await sql`create trigger contacts_search_vector before insert or update of
          first_name, middle_name, last_name, email, primary_email, organization, phone, primary_phone, account_id
          on contacts for each row execute function contacts_search_vector()`.execute(db);
      await sql`update contacts c set search_keys = contacts_search_keys(c)`.execute(db);
      await sql`create index contacts_search_keys on contacts using gin (search_keys)`.execute(db);
    },
  };
}
