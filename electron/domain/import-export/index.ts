/**
 * CSV in and out: the reader and the columns (csv-reader.ts, csv-columns.ts), an import's rows
 * checked and written a chunk at a time (rows.ts, write.ts) under a job with its progress and
 * rejections (imports.ts), and the export in the very columns the import reads (exports.ts).
 * The folder's surface: the server, the CLI and the shell import from here (eslint.config.js).
 */
export { IMPORT_KINDS, type ImportKind, hasExternalIdColumn } from './csv-columns.ts';
export { type CsvRecord, createRecordCounter, csvLine, readCsv } from './csv-reader.ts';
export { auditRows } from './audit.ts';
export { exportCsv } from './exports.ts';
export { csvFileDigest, csvHeader } from './import-file.ts';
export {
  type ImportProgress,
  type ImportResult,
  checkImportHeader,
  createImportJob,
  csvRecordsOf,
  failInterruptedImports,
  finishImportJob,
  importCsvFile,
  importRecords,
  importRejections,
  requireImportJob,
} from './imports.ts';
