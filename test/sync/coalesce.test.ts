import { describe, expect, it } from 'vitest';
import { type PendingChange, coalesce, unionFields } from '../../electron/sync/push/coalesce.ts';

const c = (seq: number, op: PendingChange['op'], fields: string[] | null = null): PendingChange => ({
  seq,
  op,
  fields,
});

describe('coalesce', () => {
  const cases: Array<[string, PendingChange[], { exists: boolean; hasRemote: boolean }, unknown]> = [
    ['nothing pending', [], { exists: true, hasRemote: false }, null],
    ['create alone', [c(1, 'create')], { exists: true, hasRemote: false }, { kind: 'create', seqs: [1] }],
    [
      'create + updates → one create',
      [c(1, 'create'), c(2, 'update', ['firstName']), c(5, 'update', ['tags'])],
      { exists: true, hasRemote: false },
      { kind: 'create', seqs: [1, 2, 5] },
    ],
    [
      'create + delete → nothing',
      [c(1, 'create'), c(2, 'update', ['x']), c(3, 'delete')],
      { exists: false, hasRemote: false },
      { kind: 'nothing', seqs: [1, 2, 3], why: 'created_and_deleted' },
    ],
    [
      'gone before push without a delete change (a donation deleted with its donor)',
      [c(4, 'create')],
      { exists: false, hasRemote: false },
      { kind: 'nothing', seqs: [4], why: 'created_and_deleted' },
    ],
    [
      'update + update → union',
      [c(3, 'update', ['firstName', 'tags']), c(7, 'update', ['tags', 'customFields.Size'])],
      { exists: true, hasRemote: true },
      { kind: 'update', seqs: [3, 7], fields: ['firstName', 'tags', 'customFields.Size'] },
    ],
    [
      'update of the whole record → every field',
      [c(3, 'update', ['firstName']), c(4, 'update', null)],
      { exists: true, hasRemote: true },
      { kind: 'update', seqs: [3, 4], fields: null },
    ],
    [
      'update + delete at HQ → delete',
      [c(3, 'update', ['firstName']), c(4, 'delete')],
      { exists: false, hasRemote: true },
      { kind: 'delete', seqs: [3, 4] },
    ],
    [
      'delete alone of a record HQ has',
      [c(9, 'delete')],
      { exists: false, hasRemote: true },
      { kind: 'delete', seqs: [9] },
    ],
    [
      'update of a record never pushed nor linked',
      [c(9, 'update', ['firstName'])],
      { exists: true, hasRemote: false },
      { kind: 'unlinked', seqs: [9] },
    ],
    [
      'create of a record linked meanwhile → nothing',
      [c(2, 'create')],
      { exists: true, hasRemote: true },
      { kind: 'nothing', seqs: [2], why: 'already_at_hq' },
    ],
    [
      'create + update of a record linked meanwhile → the update',
      [c(2, 'create'), c(3, 'update', ['lastName'])],
      { exists: true, hasRemote: true },
      { kind: 'update', seqs: [2, 3], fields: ['lastName'] },
    ],
    [
      'out of order input is sorted',
      [c(5, 'update', ['a']), c(1, 'create')],
      { exists: true, hasRemote: false },
      { kind: 'create', seqs: [1, 5] },
    ],
  ];
  it.each(cases)('%s', (_name, changes, facts, want) => {
    expect(coalesce(changes, facts)).toEqual(want);
  });

  it('union keeps first-seen order without repeats', () => {
    expect(unionFields([c(1, 'update', ['b', 'a']), c(2, 'update', ['a', 'c'])])).toEqual(['b', 'a', 'c']);
  });
});
