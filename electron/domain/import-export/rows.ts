/**
 * The first half of an import: reading a file's rows and checking each against the API's
 * schema and the domain's pure rules, before anything is looked up or written.
 */
import fs from 'node:fs';
import type { z } from 'zod';
import { newId } from '#shared/ids.ts';
import { ContactCreateBody } from '#shared/schemas/contacts.ts';
import { DonationCreateBody } from '#shared/schemas/donations.ts';
import { type NewContactRecord, prepareContact } from '../contacts/records.ts';
import {
  CONTACT_REF_FIELD,
  type ColumnPlan,
  type ContactRefColumn,
  type ImportKind,
  type RowDraft,
  draftRow,
  planColumns,
} from './csv-columns.ts';
import { type CsvProgress, type CsvRecord, readCsv } from './csv-reader.ts';
import { unreadableHeader } from './import-file.ts';
import type { CustomFieldDefinition } from '../contacts/custom-fields.ts';
import { fastDonationBody } from '../donations/fast-check.ts';
import { type CheckedDonation, checkDonation } from '../donations/rules.ts';
import { explicitElection } from '../limits/elections.ts';
import { DomainError, isDomainError } from '../errors.ts';

export interface Rejection {
  row: number;
  reason: string;
}

/** Pulls records n at a time out of batches. */
export function recordReader(batches: AsyncIterable<CsvRecord[]>) {
  const it = batches[Symbol.asyncIterator]();
  let buffer: CsvRecord[] = [];
  let pos = 0;
  let done = false;
  return {
    async next(n: number): Promise<CsvRecord[]> {
      const out: CsvRecord[] = [];
      while (out.length < n) {
        if (pos < buffer.length) {
          const take = Math.min(n - out.length, buffer.length - pos);
          for (let i = 0; i < take; i++) out.push(buffer[pos + i]!);
          pos += take;
          continue;
        }
        if (done) break;
        const r = await it.next();
        if (r.done) {
          done = true;
          break;
        }
        buffer = r.value;
        pos = 0;
      }
      return out;
    },
    /** Stops reading (closes the file) when an import ends early. */
    async close(): Promise<void> {
      if (!done) await it.return?.();
      done = true;
    },
  };
}

/* ---------------- checking rows (pure, outside the transaction) ---------------- */

export interface ContactCandidate {
  row: number;
  record: NewContactRecord;
}
export interface DonationCandidate {
  row: number;
  input: DonationCreateBody;
  checked: CheckedDonation;
  externalId: string | null;
  /** The contactId came from contactExternalId (resolved in the write). */
  contactViaRef: boolean;
  refs: Partial<Record<ContactRefColumn, string>>;
}
export type Checked<T> = { candidates: T[]; rejections: Rejection[] };

/** Stands in for a contactId that contactExternalId gives, until the write resolves it. */
export const PENDING_CONTACT = 'pending';

function pathText(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(row)';
}

/** zod's default messages in the API's words (as the server's error handler words them). */
function humanIssue(message: string): string {
  if (/received undefined/i.test(message)) return 'is required';
  return message
    .replace(/^Invalid input: expected (\w+), received (\w+)$/i, 'must be a $1')
    .replace(
      /^Invalid option: expected one of (.*)$/i,
      (_m, list: string) => `must be one of: ${list.replace(/"/g, '').split('|').join(', ')}`,
    )
    .replace(/^Too big: expected \w+ to have <=(\d+) (\w+)$/i, 'must be at most $1 $2')
    .replace(/^Too small: expected \w+ to have >=(\d+) (\w+)$/i, 'must be at least $1 $2')
    .replace(/^Invalid input: /i, '');
}

/** The reason a row's body fails the schema: every issue, naming the field, quoting the cell. */
function schemaReason(error: z.ZodError, draft: RowDraft): string {
  return error.issues
    .map((i) => {
      const field = pathText(i.path);
      const issue = humanIssue(i.message);
      const cell = i.path.length === 1 ? draft.cells[String(i.path[0])] : undefined;
      const got =
        cell !== undefined && issue !== 'is required'
          ? ` (got "${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}")`
          : '';
      return `${field} ${issue}${got}`;
    })
    .join('; ');
}

/** The reason a domain rule refuses a row: every field it names, else its message. */
function domainReason(err: DomainError): string {
  if (err.code === 'invalid_custom_field' && err.details && err.details.length > 1)
    return err.details.map((d) => `${d.field} ${d.issue}`).join('; ');
  return err.message;
}

function rejectionOf(row: number, err: unknown): Rejection {
  if (isDomainError(err)) return { row, reason: domainReason(err) };
  throw err;
}

export function checkContactRows(
  plan: ColumnPlan,
  records: CsvRecord[],
  accountId: string,
  defs: readonly CustomFieldDefinition[],
  at: string,
): Checked<ContactCandidate> {
  const out: Checked<ContactCandidate> = { candidates: [], rejections: [] };
  for (const rec of records) {
    if (rec.malformed) {
      out.rejections.push({ row: rec.line, reason: `the row cannot be read: ${rec.malformed}` });
      continue;
    }
    const draft = draftRow(plan, rec.cells);
    if (draft.problems.length > 0) {
      out.rejections.push({ row: rec.line, reason: draft.problems.join('; ') });
      continue;
    }
    const parsed = ContactCreateBody.safeParse({ ...draft.body, accountId });
    if (!parsed.success) {
      out.rejections.push({ row: rec.line, reason: schemaReason(parsed.error, draft) });
      continue;
    }
    try {
      out.candidates.push({
        row: rec.line,
        record: prepareContact(parsed.data, defs, newId('contact'), at, draft.externalId),
      });
    } catch (err) {
      out.rejections.push(rejectionOf(rec.line, err));
    }
  }
  return out;
}

export function checkDonationRows(
  plan: ColumnPlan,
  records: CsvRecord[],
  accountId: string,
): Checked<DonationCandidate> {
  const out: Checked<DonationCandidate> = { candidates: [], rejections: [] };
  for (const rec of records) {
    if (rec.malformed) {
      out.rejections.push({ row: rec.line, reason: `the row cannot be read: ${rec.malformed}` });
      continue;
    }
    const draft = draftRow(plan, rec.cells);
    if (draft.problems.length > 0) {
      out.rejections.push({ row: rec.line, reason: draft.problems.join('; ') });
      continue;
    }
    const body = draft.body;
    const contactViaRef = body.contactId === undefined && draft.contactRefs.contactExternalId !== undefined;
    if (contactViaRef) body.contactId = PENDING_CONTACT;
    const both = (['onBehalfOfContactExternalId', 'facilitatedByContactExternalId'] as const).find(
      (ref) => draft.contactRefs[ref] !== undefined && body[CONTACT_REF_FIELD[ref]] !== undefined,
    );
    if (both) {
      out.rejections.push({
        row: rec.line,
        reason: `${CONTACT_REF_FIELD[both]} and ${both} cannot both be filled in`,
      });
      continue;
    }
    const withAccount = { ...body, accountId };
    // The common case without zod; any doubt (and every bad row) goes to zod for its reason.
    const fast = fastDonationBody(withAccount);
    const parsed =
      fast !== undefined ? { success: true as const, data: fast } : DonationCreateBody.safeParse(withAccount);
    if (!parsed.success) {
      const reason = schemaReason(parsed.error, draft).replace(
        /^contactId is required/,
        'contactId (or contactExternalId) is required',
      );
      out.rejections.push({ row: rec.line, reason });
      continue;
    }
    try {
      const checked = checkDonation(parsed.data);
      explicitElection(parsed.data); // D5: type and year together
      out.candidates.push({
        row: rec.line,
        input: parsed.data,
        checked,
        externalId: draft.externalId,
        contactViaRef,
        refs: draft.contactRefs,
      });
    } catch (err) {
      out.rejections.push(rejectionOf(rec.line, err));
    }
  }
  return out;
}

/* ---------------- row sources: a file's checked rows, a chunk at a time ---------------- */

export interface CheckedChunk {
  checked: Checked<ContactCandidate> | Checked<DonationCandidate>;
  /** records read (rows handled) in this chunk */
  records: number;
  /** bytes of the file read so far */
  bytes: number;
}

export interface RowSource {
  /** Reads and plans the header; throws the 400 of a file refused whole. */
  start(defs: readonly CustomFieldDefinition[]): Promise<void>;
  /** The next rows (at most n), checked; null after the last. */
  next(n: number, at: string, defs: readonly CustomFieldDefinition[]): Promise<CheckedChunk | null>;
  close(): Promise<void>;
}

/** Rows checked in this thread. */
export function inProcessSource(
  kind: ImportKind,
  accountId: string,
  batches: AsyncIterable<CsvRecord[]>,
  progress: CsvProgress = { bytes: 0 },
): RowSource {
  const reader = recordReader(batches);
  let plan: ColumnPlan | null = null;
  return {
    async start(defs) {
      const header = await reader.next(1);
      if (header.length === 0)
        throw new DomainError('bad_request', 'empty_file', 'The file is empty: it has no header row', [
          { field: '(file)', issue: 'is empty' },
        ]);
      const first = header[0]!;
      if (first.malformed) throw unreadableHeader(first.malformed);
      plan = planColumns(kind, first.cells, defs);
    },
    async next(n, at, defs) {
      if (!plan) throw new Error('RowSource.next before start');
      const records = await reader.next(n);
      if (records.length === 0) return null;
      const checked =
        kind === 'contacts'
          ? checkContactRows(plan, records, accountId, defs, at)
          : checkDonationRows(plan, records, accountId);
      return { checked, records: records.length, bytes: progress.bytes };
    },
    async close() {
      await reader.close();
    },
  };
}

/** A file's rows, checked in this thread. */
export function fileSource(kind: ImportKind, accountId: string, file: string): RowSource {
  const progress: CsvProgress = { bytes: 0 };
  return inProcessSource(
    kind,
    accountId,
    readCsv(fs.createReadStream(file, { highWaterMark: 1 << 20 }), progress),
    progress,
  );
}
