/**
 * The same file imported twice: a file with no externalId column adds every row again when it
 * is imported again (every gift twice in the donors' totals, and at HQ). An import keeps its
 * file's SHA-256 (migration import-file-hash), and one of a file the account imported before
 * is refused unless asked for again.
 */
import type { Engine } from '../../db/migration-types.ts';
import type { Db } from '../../db/store.ts';
import { takeTurnsOn } from '../../db/take-turns.ts';
import type { ImportKind } from './csv-columns.ts';
import { DomainError } from '../errors.ts';

/** The file an import reads: its SHA-256, whether it has an externalId column, asked again. */
export interface ImportedFile {
  sha256: string;
  byExternalId: boolean;
  again: boolean;
}

/**
 * In the import job's own write: a 409 when the file has no externalId column, was not asked
 * for again, and the account imported it before (a job still running, or one that added rows).
 * Two uploads of one file at once take turns on PostgreSQL (SQLite writes one at a time).
 */
export async function refuseImportedBefore(
  trx: Db,
  engine: Engine,
  accountId: string,
  kind: ImportKind,
  file: ImportedFile,
): Promise<void> {
  if (file.byExternalId || file.again) return;
  await takeTurnsOn(trx, engine, `import-file:${accountId}:${file.sha256}`);
  const before = await trx
    .selectFrom('imports')
    .select(['createdAt', 'status', 'importedRows'])
    .where('accountId', '=', accountId)
    .where('fileSha256', '=', file.sha256)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('status', '=', 'running'), eb('importedRows', '>', 0)]))
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();
  if (!before) return;
  const at = before.createdAt;
  const running = before.status === 'running';
  // The day and time in UTC, said so: a server's clock is no volunteer's (the app shows `at` in
  // the user's own time zone).
  const what = running
    ? 'is being imported now'
    : `was imported on ${at.slice(0, 10)} at ${at.slice(11, 16)} UTC (${before.importedRows} ${before.importedRows === 1 ? 'row' : 'rows'} added)`;
  throw new DomainError(
    'conflict',
    'imported_before',
    `This file ${what}. Its rows have no externalId, so importing it again adds every one a second time.`,
    [{ field: '(body)', issue: `${what}; again=true imports it a second time` }],
    { importedBefore: { at, running, rowsAdded: before.importedRows } },
  );
}
