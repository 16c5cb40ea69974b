/**
 * Bulk import and export (GiftDesk extensions): POST a CSV file, follow the import's
 * progress, read its rejected rows; export an account's contacts or donations as CSV in
 * the columns the import reads.
 */
import { z } from 'zod';
import { accountIdField, typeError } from './common.ts';

export const IMPORT_KINDS = ['contacts', 'donations'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_STATUSES = ['running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ImportQuery = z.object({
  accountId: accountIdField,
  kind: z.enum(IMPORT_KINDS, { error: typeError(`must be one of: ${IMPORT_KINDS.join(', ')}`) }),
  push: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  /**
   * true: import a file with no externalId column even though the account imported the same
   * file before (its rows are then added a second time). Without it, that import is a 409.
   */
  again: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
});
export type ImportQuery = z.infer<typeof ImportQuery>;

/** The CSV file: a header row of column names, then one row per record (UTF-8). */
export const ImportCsvBody = z
  .string()
  .describe('CSV text (UTF-8): a header row of column names, then one record per row');

export const ImportJob = z
  .object({
    id: z.string(),
    kind: z.enum(IMPORT_KINDS),
    status: z.enum(IMPORT_STATUSES),
    push: z.boolean(),
    /** Data rows in the file (counted on arrival; the exact count once done). */
    totalRows: z.number().int(),
    /** Rows handled so far: imported + rejectedCount + skipped. */
    processedRows: z.number().int(),
    imported: z.number().int(),
    rejectedCount: z.number().int(),
    /** Rows whose externalId the account already had (a re-run): neither imported nor rejected. */
    skipped: z.number().int(),
    error: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ImportJob' });
export type ImportJob = z.infer<typeof ImportJob>;

export const CsvText = z.string().describe('CSV text (UTF-8, CRLF line ends)');
