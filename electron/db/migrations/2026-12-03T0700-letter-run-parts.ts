/**
 * A run's PDF in parts. Frozen once shipped.
 *
 * letter_runs gains `parts`: JSON of the PDF files a run wrote, in order — each file relative
 * to the data folder, the letters it holds (first and last, counted from 1) and its pages. A
 * large run ends its document and starts the next file every so many letters, so that the
 * renderer's memory for a document's pages is given back. Null for runs made before it (their
 * one PDF is `file`) and for runs with no PDF.
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-12-03T0700-letter-run-parts';

export function migration(_engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('letter_runs').addColumn('parts', 'text').execute();
    },
  };
}
