/**
 * The initial schema. Frozen: never edit a migration that has shipped; add a new one.
 * It imports nothing from the application (only Kysely), so it reads the same forever.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-22T0900-initial';

export function migration(engine: Engine): Migration {
  const isSqlite = engine === 'sqlite';
  // Case-insensitive ordering for names and emails (sortBy) without expression indexes.
  // (SQLite: nocase; PostgreSQL: ICU's root collation, which orders "adams" before "Baker".)
  const nocase = isSqlite ? sql`collate nocase` : sql`collate "und-x-icu"`;
  const bigint = isSqlite ? 'integer' : 'bigint';
  // Timestamps: ISO 8601 text on SQLite (it sorts as time), timestamptz on PostgreSQL.
  const ts = isSqlite ? 'text' : 'timestamptz';

  return {
    async up(db: Kysely<unknown>) {
      const s = db.schema;
      await s
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('default_election_type', 'text')
        .addColumn('default_election_year', 'integer')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await s
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('revoked_at', ts)
        .addColumn('last_used_at', ts)
        .execute();

      let contacts = s.createTable('contacts');
      contacts = isSqlite
        ? contacts.addColumn('seq', 'integer', (c) => c.primaryKey())
        : contacts.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity());
      await contacts
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('contact_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull().modifyEnd(nocase))
        .addColumn('last_name', 'text', (c) => c.notNull().modifyEnd(nocase))
        .addColumn('prefix', 'text')
        .addColumn('middle_name', 'text')
        .addColumn('suffix', 'text')
        .addColumn('salutation', 'text')
        .addColumn('formal_salutation', 'text')
        .addColumn('primary_email', 'text')
        .addColumn('primary_phone', 'text')
        .addColumn('organization', 'text')
        .addColumn('title', 'text')
        .addColumn('employer', 'text')
        .addColumn('occupation', 'text')
        .addColumn('industry', 'text')
        .addColumn('spouse', 'text')
        .addColumn('birth_date', 'text')
        .addColumn('gender', 'text')
        .addColumn('political_party', 'text')
        .addColumn('capacity', 'text')
        .addColumn('quick_notes', 'text')
        .addColumn('source', 'text')
        .addColumn('preferred_contact_method', 'text')
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('email', 'text', (c) => c.modifyEnd(nocase))
        .addColumn('phone', 'text')
        .addColumn('external_id', 'text')
        .addColumn('total_cents', bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('last_donation_date', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      for (const col of ['created_at', 'last_name', 'first_name', 'email']) {
        // Missing emails sort first ascending (SQLite's natural order; PostgreSQL is told).
        const index = s.createIndex(`contacts_account_${col}`).on('contacts');
        await (
          col === 'email' && !isSqlite
            ? index.expression(sql`account_id, email nulls first, id`)
            : index.columns(['account_id', col, 'id'])
        ).execute();
      }
      await s
        .createIndex('contacts_account_external_id')
        .on('contacts')
        .columns(['account_id', 'external_id'])
        .unique()
        .where(sql.ref('external_id'), 'is not', null)
        .execute();
      await s
        .createIndex('contacts_account_primary_email')
        .on('contacts')
        .columns(['account_id', 'primary_email'])
        .execute();

      const sub = (table: string) =>
        s
          .createTable(table)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull());
      await sub('contact_phones')
        .addColumn('phone_number', 'text', (c) => c.notNull())
        .addColumn('phone_type', 'text')
        .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sub('contact_emails')
        .addColumn('email_address', 'text', (c) => c.notNull())
        .addColumn('email_type', 'text')
        .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sub('contact_addresses')
        .addColumn('address_type', 'text')
        .addColumn('street1', 'text')
        .addColumn('street2', 'text')
        .addColumn('city', 'text')
        .addColumn('state', 'text')
        .addColumn('postal_code', 'text')
        .addColumn('country', 'text')
        .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sub('contact_education')
        .addColumn('institution', 'text', (c) => c.notNull())
        .addColumn('degree', 'text')
        .addColumn('field_of_study', 'text')
        .addColumn('graduation_year', 'integer')
        .execute();
      await sub('contact_employment')
        .addColumn('employer', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('occupation', 'text')
        .addColumn('start_date', 'text')
        .addColumn('end_date', 'text')
        .addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sub('contact_notes')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('note_type', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      for (const t of [
        'contact_phones',
        'contact_emails',
        'contact_addresses',
        'contact_education',
        'contact_employment',
        'contact_notes',
      ]) {
        await s.createIndex(`${t}_contact`).on(t).columns(['contact_id', 'position']).execute();
      }

      await s
        .createTable('custom_fields')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('field_type', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('archived_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('custom_fields_account_name', ['account_id', 'name_key'])
        .execute();
      await s
        .createTable('custom_field_options')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('field_id', 'text', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('retired_at', ts)
        .execute();
      await s
        .createIndex('custom_field_options_field')
        .on('custom_field_options')
        .columns(['field_id', 'position'])
        .execute();
      await s
        .createTable('contact_custom_values')
        .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('field_id', 'text', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
        .addColumn('value_text', 'text')
        .addColumn('value_number', isSqlite ? 'real' : 'double precision')
        .addColumn('option_id', 'text', (c) => c.references('custom_field_options.id'))
        .addPrimaryKeyConstraint('contact_custom_values_pk', ['contact_id', 'field_id'])
        .execute();

      const named = (table: string) =>
        s
          .createTable(table)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull());
      await named('campaigns')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await named('committees')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await named('donation_accounts')
        .addColumn('limit_per_election_cents', bigint)
        .addColumn('limit_per_cycle_cents', bigint)
        .addColumn('limit_per_year_cents', bigint)
        .addColumn('limit_per_donor_cents', bigint)
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      for (const t of ['campaigns', 'committees', 'donation_accounts']) {
        await s.createIndex(`${t}_account`).on(t).columns(['account_id', 'name']).execute();
      }
      await s
        .createTable('campaign_donation_accounts')
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
        .addColumn('donation_account_id', 'text', (c) =>
          c.notNull().references('donation_accounts.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('campaign_donation_accounts_pk', ['campaign_id', 'donation_account_id'])
        .execute();

      await s
        .createTable('elections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('election_type', 'text', (c) => c.notNull())
        .addColumn('election_year', 'integer', (c) => c.notNull())
        .addColumn('election_date', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('elections_account_type_year', ['account_id', 'election_type', 'election_year'])
        .execute();
      await s
        .createIndex('elections_account_date')
        .on('elections')
        .columns(['account_id', 'election_date'])
        .execute();

      await s
        .createTable('donations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('amount_cents', bigint, (c) => c.notNull())
        .addColumn('donation_date', ts, (c) => c.notNull())
        .addColumn('payment_method', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('campaign_id', 'text', (c) => c.references('campaigns.id'))
        .addColumn('committee_id', 'text', (c) => c.references('committees.id'))
        .addColumn('donation_account_id', 'text', (c) => c.references('donation_accounts.id'))
        .addColumn('election_type', 'text', (c) => c.notNull())
        .addColumn('election_year', 'integer', (c) => c.notNull())
        .addColumn('on_behalf_of_contact_id', 'text', (c) => c.references('contacts.id').onDelete('set null'))
        .addColumn('facilitated_by_contact_id', 'text', (c) =>
          c.references('contacts.id').onDelete('set null'),
        )
        .addColumn('is_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_recurring', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('thank_you_sent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('thank_you_sent_date', ts)
        .addColumn('notes', 'text')
        .addColumn('external_id', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await s
        .createIndex('donations_account_date')
        .on('donations')
        .columns(['account_id', 'donation_date', 'id'])
        .execute();
      await s
        .createIndex('donations_contact')
        .on('donations')
        .columns(['contact_id', 'donation_date'])
        .execute();
      await s
        .createIndex('donations_limit_window')
        .on('donations')
        .columns(['donation_account_id', 'contact_id', 'donation_date'])
        .execute();
      await s
        .createIndex('donations_account_external_id')
        .on('donations')
        .columns(['account_id', 'external_id'])
        .unique()
        .where(sql.ref('external_id'), 'is not', null)
        .execute();
      for (const col of ['campaign_id', 'on_behalf_of_contact_id', 'facilitated_by_contact_id']) {
        await s.createIndex(`donations_${col}`).on('donations').column(col).execute();
      }

      await s
        .createTable('limit_flags')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('donation_id', 'text', (c) => c.notNull().references('donations.id').onDelete('cascade'))
        .addColumn('limit_kind', 'text', (c) => c.notNull())
        .addColumn('window_key', 'text', (c) => c.notNull())
        .addColumn('limit_cents', bigint, (c) => c.notNull())
        .addColumn('donor_total_cents', bigint, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('resolved_at', ts)
        .addColumn('resolution_note', 'text')
        .execute();
      await s
        .createIndex('limit_flags_account_state')
        .on('limit_flags')
        .columns(['account_id', 'state', 'created_at'])
        .execute();
      await s.createIndex('limit_flags_donation').on('limit_flags').columns(['donation_id']).execute();

      await s
        .createTable('donation_history')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('donation_id', 'text', (c) => c.notNull().references('donations.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('detail', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await s
        .createIndex('donation_history_donation')
        .on('donation_history')
        .columns(['donation_id', 'created_at'])
        .execute();

      let log = s.createTable('change_log');
      log = isSqlite
        ? log.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        : log.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity());
      await log
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('op', 'text', (c) => c.notNull())
        .addColumn('fields', 'text')
        .addColumn('push', 'integer', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await s
        .createIndex('change_log_entity')
        .on('change_log')
        .columns(['entity_type', 'entity_id', 'seq'])
        .execute();

      await s
        .createTable('account_counters')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('contacts', bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('donations', bigint, (c) => c.notNull().defaultTo(0))
        .execute();

      await s
        .createTable('imports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total_rows', 'integer', (c) => c.notNull())
        .addColumn('processed_rows', 'integer', (c) => c.notNull())
        .addColumn('imported_rows', 'integer', (c) => c.notNull())
        .addColumn('rejected', 'text', (c) => c.notNull())
        .addColumn('push', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .execute();

      if (!isSqlite) {
        // Word and prefix search over name, email and organisation, accents folded: the same
        // words SQLite's unicode61 tokenizer makes (split on anything not a letter or digit),
        // kept in a tsvector by a trigger and searched through a GIN index.
        await sql`create extension if not exists unaccent`.execute(db);
        await sql`alter table contacts add column search_vector tsvector`.execute(db);
        await sql`create function contacts_search_vector() returns trigger language plpgsql as $$
          begin
            new.search_vector := to_tsvector('simple', regexp_replace(lower(public.unaccent(
              coalesce(new.first_name, '') || ' ' || coalesce(new.middle_name, '') || ' ' ||
              coalesce(new.last_name, '') || ' ' || coalesce(new.email, '') || ' ' ||
              coalesce(new.primary_email, '') || ' ' || coalesce(new.organization, ''))),
              '[^[:alnum:]]+', ' ', 'g'));
            return new;
          end $$`.execute(db);
        await sql`create trigger contacts_search_vector before insert or update of
            first_name, middle_name, last_name, email, primary_email, organization
            on contacts for each row execute function contacts_search_vector()`.execute(db);
        await sql`create index contacts_search on contacts using gin (search_vector)`.execute(db);
      }
      if (isSqlite) {
        // Word and prefix search over name, email and organisation; accents folded.
        // Contentless (the text lives in `contacts`), kept in step by triggers, keyed by
        // contacts.seq (an INTEGER PRIMARY KEY, so VACUUM never renumbers it).
        await sql`create virtual table contacts_fts using fts5(
            name, email, organization,
            content='', contentless_delete=1,
            tokenize="unicode61 remove_diacritics 2")`.execute(db);
        const row = (r: 'new' | 'old') =>
          sql.raw(`${r}.seq,
            ${r}.first_name || ' ' || coalesce(${r}.middle_name, '') || ' ' || ${r}.last_name,
            coalesce(${r}.email, '') || ' ' || coalesce(${r}.primary_email, ''),
            coalesce(${r}.organization, '')`);
        await sql`create trigger contacts_fts_insert after insert on contacts begin
            insert into contacts_fts(rowid, name, email, organization) values (${row('new')});
          end`.execute(db);
        await sql`create trigger contacts_fts_delete after delete on contacts begin
            delete from contacts_fts where rowid = old.seq;
          end`.execute(db);
        await sql`create trigger contacts_fts_update
            after update of first_name, middle_name, last_name, email, primary_email, organization
            on contacts begin
            delete from contacts_fts where rowid = old.seq;
            insert into contacts_fts(rowid, name, email, organization) values (${row('new')});
          end`.execute(db);
      }
    },
  };
}
