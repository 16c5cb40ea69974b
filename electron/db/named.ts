/**
 * The mark of a statement every request runs, which PostgreSQL's pool sends as a named
 * prepared statement (postgres/named-statements.ts). A comment, so the text runs as it is on
 * either engine.
 */
export const NAMED = '/* named */ ';

/** The statement, marked to be sent as a named prepared statement on PostgreSQL. */
export function named(text: string): string {
  return NAMED + text;
}
