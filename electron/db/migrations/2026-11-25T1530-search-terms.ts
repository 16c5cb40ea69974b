/**
 * PostgreSQL: contact search counted from a b-tree instead of the heap. A search's total was a
 * bitmap heap scan of every match (`jane:*` on 1,000,000 contacts: the GIN scan 50–100 ms,
 * then 62,558 heap blocks, 0.5 s; bench/RESULTS.md). `contact_search_terms` holds each
 * contact's distinct search words (the tsvector's words: name, email, organisation,
 * accents folded, lower case) under its account, keyed (account_id, term, contact_seq) in the
 * C collation: a word prefix is a range of that key, read by an index-only scan, and several
 * words are the intersection of their ranges. Kept by a trigger on `contacts`. The account's
 * last-gift and creation orders' indexes carry `seq`, so a broad search's page is read off them
 * without the table.
 *
 * SQLite: nothing (its full-text index counts without reading rows). Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-25T1530-search-terms';

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== 'postgres') return;
      await sql`create function contacts_search_terms(c contacts) returns setof text language sql stable as $$
          select distinct t from regexp_split_to_table(regexp_replace(lower(public.unaccent(
            coalesce(c.first_name, '') || ' ' || coalesce(c.middle_name, '') || ' ' ||
            coalesce(c.last_name, '') || ' ' || coalesce(c.email, '') || ' ' ||
            coalesce(c.primary_email, '') || ' ' || coalesce(c.organization, ''))),
            '[^[:alnum:]]+', ' ', 'g'), ' ') t where t <> ''
        $$`.execute(db);
      await sql`create table contact_search_terms (
          account_id text not null,
          term text collate "C" not null,
          contact_seq bigint not null references contacts(seq) on delete cascade,
          primary key (account_id, term, contact_seq))`.execute(db);
      // By contact: a contact's rewrite or delete, and a word tested for one contact (the other
      // words of a search probed from its narrowest one) without the table.
      await sql`create index contact_search_terms_contact on contact_search_terms (contact_seq, term)`.execute(
        db,
      );
      await sql`insert into contact_search_terms (account_id, term, contact_seq)
          select c.account_id, t, c.seq from contacts c, contacts_search_terms(c) t`.execute(db);
      await sql`create function contacts_search_terms_sync() returns trigger language plpgsql as $$
          begin
            if tg_op = 'UPDATE' then
              delete from contact_search_terms where contact_seq = old.seq;
            end if;
            insert into contact_search_terms (account_id, term, contact_seq)
              select new.account_id, t, new.seq from contacts_search_terms(new) t;
            return null;
          end $$`.execute(db);
      await sql`create trigger contacts_search_terms after insert or update of
          first_name, middle_name, last_name, email, primary_email, organization, account_id
          on contacts for each row execute function contacts_search_terms_sync()`.execute(db);
      // A broad search's page walks an order's index and tests each entry's seq against the
      // match set: with seq in the index, the walk reads no table row (an index-only scan).
      for (const [index, columns] of [
        ['contacts_account_last_gift', sql`account_id, last_donation_date nulls first, id`],
        ['contacts_account_created_at', sql`account_id, created_at, id`],
      ] as const) {
        await sql`create index ${sql.id(`${index}_seq`)} on contacts (${columns}) include (seq)`.execute(db);
        await sql`drop index ${sql.id(index)}`.execute(db);
        await sql`alter index ${sql.id(`${index}_seq`)} rename to ${sql.id(index)}`.execute(db);
      }
      await sql`analyze contact_search_terms`.execute(db);
    },
  };
}
