/**
 * Rows written through the bulk import (`importRecords`, the same path as a CSV upload), as
 * one header and its data lines (`csvRecordsOf`): a test's donors and gifts in seconds. Fails the test when
 * the import rejects any row.
 */
import { expect } from 'vitest';
import { csvRecordsOf, importRecords } from '../../electron/domain/import-export/index.ts';
import type { TestServer } from './server.ts';

export async function importRows(
  s: Pick<TestServer, 'ctx' | 'accountId'>,
  kind: 'contacts' | 'donations',
  header: string[],
  data: string[][],
): Promise<void> {
  const r = await importRecords(
    s.ctx,
    { kind, accountId: s.accountId, push: false },
    csvRecordsOf(header, data),
  );
  expect(r.rejectedCount, JSON.stringify(r.rejected[0])).toBe(0);
}
