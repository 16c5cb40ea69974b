/**
 * Rows written through the bulk import (`importRecords`, the same path as a CSV upload), as
 * one header and its data lines: a test's donors and gifts in seconds. Fails the test when
 * the import rejects any row.
 */
import { expect } from 'vitest';
import { importRecords, type CsvRecord } from '../../electron/domain/import-export/index.ts';
import type { TestServer } from './server.ts';

export async function importRows(
  s: Pick<TestServer, 'ctx' | 'accountId'>,
  kind: 'contacts' | 'donations',
  header: string[],
  data: string[][],
): Promise<void> {
  const records: AsyncIterable<CsvRecord[]> = {
    async *[Symbol.asyncIterator]() {
      yield [{ cells: header, line: 1 }];
      yield data.map((cells, k) => ({ cells, line: k + 2 }));
    },
  };
  const r = await importRecords(s.ctx, { kind, accountId: s.accountId, push: false }, records);
  expect(r.rejectedCount, JSON.stringify(r.rejected[0])).toBe(0);
}
