/**
 * Coalescing: what one request must carry for a record, from its changes that are not yet in
 * flight and what the record is now. Pure (unit-tested in test/sync/coalesce.test.ts).
 *
 * - create + updates → one create (built from the record as it is at send time);
 * - update + update → one update of the union of their fields (null = every field);
 * - create + … + delete, or a record gone before it ever reached HQ → nothing is sent;
 * - anything + delete of a record HQ has → one DELETE.
 * Every change considered is listed in `seqs`: exactly those are marked done when the
 * request is applied (or at once, for `nothing`). Changes that arrive later are not in it.
 */
import type { ChangeOp } from '../../domain/change-log.ts';

export interface PendingChange {
  seq: number;
  op: ChangeOp;
  /** Wire field names the change touched; null = the whole record. */
  fields: readonly string[] | null;
}

export interface RecordFacts {
  /** The record still exists locally. */
  exists: boolean;
  /** HQ has it: the id map holds its remote id. */
  hasRemote: boolean;
}

export type Plan =
  | { kind: 'nothing'; seqs: number[]; why: 'created_and_deleted' | 'gone_before_push' | 'already_at_hq' }
  | { kind: 'create'; seqs: number[] }
  | { kind: 'update'; seqs: number[]; fields: string[] | null }
  | { kind: 'delete'; seqs: number[] }
  /** Changes to a record HQ has but that was never pushed by us and is not linked (history imported with --no-push). */
  | { kind: 'unlinked'; seqs: number[] };

/** The union of changed fields; null when any change covered the whole record. */
export function unionFields(changes: readonly PendingChange[]): string[] | null {
  const out = new Set<string>();
  for (const c of changes) {
    if (c.fields === null) return null;
    for (const f of c.fields) out.add(f);
  }
  return [...out];
}

export function coalesce(changes: readonly PendingChange[], facts: RecordFacts): Plan | null {
  if (changes.length === 0) return null;
  const sorted = [...changes].sort((a, b) => a.seq - b.seq);
  const seqs = sorted.map((c) => c.seq);
  const deleted = !facts.exists || sorted.some((c) => c.op === 'delete');
  const hasCreate = sorted.some((c) => c.op === 'create');
  if (deleted) {
    if (facts.hasRemote) return { kind: 'delete', seqs };
    return { kind: 'nothing', seqs, why: hasCreate ? 'created_and_deleted' : 'gone_before_push' };
  }
  if (!facts.hasRemote) return hasCreate ? { kind: 'create', seqs } : { kind: 'unlinked', seqs };
  // HQ has it already (linked by reconciliation, an email match or a pull): a pending create
  // adds nothing HQ needs; the updates after it go as one update.
  const updates = sorted.filter((c) => c.op === 'update');
  if (updates.length === 0) return { kind: 'nothing', seqs, why: 'already_at_hq' };
  return { kind: 'update', seqs, fields: unionFields(updates) };
}
