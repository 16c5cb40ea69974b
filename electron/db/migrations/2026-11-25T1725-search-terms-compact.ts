/**
 * PostgreSQL: contact search reads half as much and counts without de-duplicating
 * (bench/RESULTS.md, "Contact search and donor lookup").
 *
 * `contact_search_terms` is rebuilt smaller and with one more column:
 *  - the account is an integer key (`contact_search_accounts`, one row per account, filled by
 *    the search trigger) instead of the account id's 30 characters in every entry;
 *  - `shared`: how many characters the term shares at its start with the contact's previous
 *    term (its terms in C order; 0 for the first). A contact's terms starting with a prefix P
 *    are consecutive in that order, so exactly one of them — the first — shares fewer than
 *    length(P) characters with its predecessor: counting the entries of P's range with
 *    `shared < length(P)` counts each contact once, without a hash of the range. The column is
 *    in both indexes (include), so the count stays an index-only scan.
 *
 * The tsvector (`contacts.search_vector`, its GIN index and the trigger filling it) is dropped:
 * nothing reads it since migration search-terms. The keys of the exact tier (`search_keys`)
 * stay, filled by a trigger of their own.
 *
 * SQLite: nothing. Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1725-search-terms-compact';

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== 'postgres') return;
      // The exact tier's keys without the tsvector.
      await sql`create function contacts_search_keys_fill() returns trigger language plpgsql as $$
          begin
            new.search_keys := contacts_search_keys(new);
            return new;
          end $$`.execute(db);
      await sql`create trigger contacts_search_keys before insert or update of
          first_name, middle_name, last_name, email, primary_email, organization, phone, primary_phone, account_id
          on contacts for each row execute function contacts_search_keys_fill()`.execute(db);
      await sql`drop trigger contacts_search_vector on contacts`.execute(db);
      await sql`drop function contacts_search_vector()`.execute(db);
      await sql`drop index contacts_search`.execute(db);
      await sql`alter table contacts drop column search_vector`.execute(db);

      // Characters two terms share at their start.
      await sql`create function contacts_search_shared(a text, b text) returns integer language plpgsql immutable strict as $$
          declare
            i integer := 1;
            n integer := least(length(a), length(b));
          begin
            while i <= n and substr(a, i, 1) = substr(b, i, 1) loop
              i := i + 1;
            end loop;
            return i - 1;
          end $$`.execute(db);
      // A contact's distinct terms (contacts_search_terms, migration search-terms) in C order,
      // each with what it shares with the one before.
      await sql`create function contacts_search_words(c contacts) returns table (term text, shared integer) language sql stable as $$
          select s.t, contacts_search_shared(lag(s.t, 1, '') over (order by s.t), s.t)
          from (select t collate "C" as t from contacts_search_terms(c) t) s
        $$`.execute(db);
      await sql`create table contact_search_accounts (
          account_id text primary key references accounts(id) on delete cascade,
          key integer generated always as identity unique)`.execute(db);
      await sql`insert into contact_search_accounts (account_id) select distinct account_id from contacts order by 1`.execute(
        db,
      );

      await sql`drop trigger contacts_search_terms on contacts`.execute(db);
      await sql`drop table contact_search_terms`.execute(db);
      await sql`create table contact_search_terms (
          account_key integer not null,
          term text collate "C" not null,
          contact_seq bigint not null references contacts(seq) on delete cascade,
          shared smallint not null)`.execute(db);
      await sql`insert into contact_search_terms (account_key, term, contact_seq, shared)
          select k.key, w.term, c.seq, w.shared
          from contacts c join contact_search_accounts k on k.account_id = c.account_id, contacts_search_words(c) w`.execute(
        db,
      );
      // The key after the fill: built sorted, its pages full (filled in contact order instead,
      // it came out twice the size: 394 MB for 5.3 million entries).
      await sql`alter table contact_search_terms add primary key (account_key, term, contact_seq) include (shared)`.execute(
        db,
      );
      // By contact: a contact's rewrite or delete, and a word tested for one contact (the other
      // words of a search probed from its narrowest one, a page's entries) without the table.
      await sql`create index contact_search_terms_contact on contact_search_terms (contact_seq, term) include (shared, account_key)`.execute(
        db,
      );
      await sql`create or replace function contacts_search_terms_sync() returns trigger language plpgsql as $$
          declare
            k integer;
          begin
            if tg_op = 'UPDATE' then
              delete from contact_search_terms where contact_seq = old.seq;
            end if;
            select a.key into k from contact_search_accounts a where a.account_id = new.account_id;
            if k is null then
              insert into contact_search_accounts (account_id) values (new.account_id) on conflict (account_id) do nothing;
              select a.key into k from contact_search_accounts a where a.account_id = new.account_id;
            end if;
            insert into contact_search_terms (account_key, term, contact_seq, shared)
              select k, w.term, new.seq, w.shared from contacts_search_words(new) w;
            return null;
          end $$`.execute(db);
      await sql`create trigger contacts_search_terms after insert or update of
          first_name, middle_name, last_name, email, primary_email, organization, account_id
          on contacts for each row execute function contacts_search_terms_sync()`.execute(db);
      await sql`analyze contact_search_terms`.execute(db);
      await sql`analyze contact_search_accounts`.execute(db);
    },
  };
}
