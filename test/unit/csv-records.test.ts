/**
 * csvRecordsOf: a header and its rows as the records the bulk import reads (the demo, the
 * benches' seeds and the tests' import helper all go through it): the header as line 1, the
 * rows from line 2 in batches of the size asked for, the last batch holding the rest.
 */
import { describe, expect, it } from 'vitest';
import { type CsvRecord, csvRecordsOf } from '../../electron/domain/import-export/index.ts';

async function batches(records: AsyncIterable<CsvRecord[]>): Promise<CsvRecord[][]> {
  const out: CsvRecord[][] = [];
  for await (const b of records) out.push(b);
  return out;
}

describe('csvRecordsOf', () => {
  it('numbers the header line 1 and the rows from line 2, in batches of the size asked for', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => [`c${i}`, `Name ${i}`]);
    const got = await batches(csvRecordsOf(['externalId', 'firstName'], rows, 2));
    expect(got.map((b) => b.map((r) => r.line))).toEqual([[1], [2, 3], [4, 5], [6]]);
    expect(got[0]![0]!.cells).toEqual(['externalId', 'firstName']);
    expect(
      got
        .slice(1)
        .flat()
        .map((r) => r.cells),
    ).toEqual(rows);
  });

  it('reads rows from a generator as the batches are asked for, and gives the header alone for no rows', async () => {
    let made = 0;
    function* rows(): Generator<string[]> {
      for (let i = 0; i < 3000; i++) {
        made += 1;
        yield [`c${i}`];
      }
    }
    const it = csvRecordsOf(['externalId'], rows())[Symbol.asyncIterator]();
    await it.next();
    const first = await it.next();
    expect(first.value).toHaveLength(1000);
    expect(made).toBe(1000);
    expect(await batches(csvRecordsOf(['externalId'], []))).toEqual([[{ cells: ['externalId'], line: 1 }]]);
  });
});
