/**
 * SQLite: the full-text indexes fold the letters that are not a base letter with an accent
 * (ø, ł, đ, ð, æ, œ, ß, þ, ı, ħ, ŧ) as PostgreSQL's unaccent does, so "soren odegard" finds
 * Søren Ødegård on both engines. The tokenizer (unicode61, remove_diacritics 2) only takes
 * marks off letters that decompose (é, ñ, å); these letters decompose into nothing, so they
 * stayed themselves and a volunteer typing plain letters found no one.
 *
 * The triggers that fill `contacts_fts` and `contacts_exact` (migration search-relevance) are
 * recreated with the letters replaced before the tokenizer sees them, and both tables are
 * refilled from `contacts` (contentless). The search side folds the typed text the same way
 * (shared/fold.ts LETTER_FOLDS, of which the list below is a frozen copy). Tables, columns,
 * prefix index and tokenizer are unchanged.
 *
 * PostgreSQL: nothing (unaccent folds these letters already). Frozen once shipped.
 */
import { type Kysely, sql } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';
import { strip } from './2026-11-25T1520-search-relevance.ts';

export const name = '2026-11-25T2310-search-fold-letters';

/** The letters folded, as of this migration (upper and lower case: replace() is exact). */
const FOLDS: ReadonlyArray<readonly [string, string]> = [
  ['ø', 'o'],
  ['Ø', 'O'],
  ['ł', 'l'],
  ['Ł', 'L'],
  ['đ', 'd'],
  ['Đ', 'D'],
  ['ð', 'd'],
  ['Ð', 'D'],
  ['æ', 'ae'],
  ['Æ', 'AE'],
  ['œ', 'oe'],
  ['Œ', 'OE'],
  ['ß', 'ss'],
  ['ẞ', 'SS'],
  ['þ', 'th'],
  ['Þ', 'TH'],
  ['ı', 'i'],
  ['ħ', 'h'],
  ['Ħ', 'H'],
  ['ŧ', 't'],
  ['Ŧ', 'T'],
];

function fold(expr: string): string {
  let out = expr;
  for (const [from, to] of FOLDS) out = `replace(${out}, '${from}', '${to}')`;
  return out;
}

/** The `exact` column's text for a row alias: every key, separated by spaces, folded once. */
function exactKeys(r: string): string {
  return fold(
    [
      `${r}.first_name || coalesce(${r}.middle_name, '') || ${r}.last_name`,
      `${r}.last_name || ${r}.first_name || coalesce(${r}.middle_name, '')`,
      `${r}.email`,
      `${r}.primary_email`,
      `${r}.organization`,
      `${r}.phone`,
      `${r}.primary_phone`,
    ]
      .map(strip)
      .join(` || ' ' || `),
  );
}

/** The `contacts_fts` row (rowid, name, email, organization, account) for a row alias. */
function ftsRow(r: string): string {
  return `${r}.seq,
    ${fold(`${r}.first_name || ' ' || coalesce(${r}.middle_name, '') || ' ' || ${r}.last_name`)},
    ${fold(`coalesce(${r}.email, '') || ' ' || coalesce(${r}.primary_email, '')`)},
    ${fold(`coalesce(${r}.organization, '')`)},
    hex(${r}.account_id)`;
}

export function migration(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== 'sqlite') return;
      await sql`drop trigger if exists contacts_fts_insert`.execute(db);
      await sql`drop trigger if exists contacts_fts_delete`.execute(db);
      await sql`drop trigger if exists contacts_fts_update`.execute(db);
      await sql`drop table contacts_fts`.execute(db);
      await sql`drop table contacts_exact`.execute(db);
      await sql`create virtual table contacts_fts using fts5(
          name, email, organization, account,
          content='', contentless_delete=1, prefix='1 2 3 4 5 6',
          tokenize="unicode61 remove_diacritics 2")`.execute(db);
      await sql`create virtual table contacts_exact using fts5(
          exact, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2")`.execute(db);
      await sql`insert into contacts_fts(rowid, name, email, organization, account)
          select ${sql.raw(ftsRow('contacts'))} from contacts order by seq`.execute(db);
      await sql`insert into contacts_exact(rowid, exact)
          select seq, ${sql.raw(exactKeys('contacts'))} from contacts order by seq`.execute(db);
      await sql`create trigger contacts_fts_insert after insert on contacts begin
          insert into contacts_fts(rowid, name, email, organization, account) values (${sql.raw(ftsRow('new'))});
          insert into contacts_exact(rowid, exact) values (new.seq, ${sql.raw(exactKeys('new'))});
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
          insert into contacts_fts(rowid, name, email, organization, account) values (${sql.raw(ftsRow('new'))});
          insert into contacts_exact(rowid, exact) values (new.seq, ${sql.raw(exactKeys('new'))});
        end`.execute(db);
      await sql`insert into contacts_fts(contacts_fts) values ('optimize')`.execute(db);
      await sql`insert into contacts_exact(contacts_exact) values ('optimize')`.execute(db);
    },
  };
}
