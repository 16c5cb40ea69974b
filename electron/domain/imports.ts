/**
 * Bulk import of contacts and donations from CSV: legacy history, a processor's export, an
 * HQ extract. Every row passes the same zod schema and the same domain functions as the API
 * (prepareContact; checkDonation, the reference list, electionFromCalendar, the limit
 * windows of D6), so a row is accepted here exactly when the API would accept it as a body.
 *
 * Fast because the per-row work is plain JavaScript: rows are checked outside the write
 * transaction, references are resolved per chunk with one query per kind, and rows go in
 * with multi-row INSERTs compiled once. Each chunk is one `store.write` (all of it or none),
 * the event loop gets a turn between chunks, and the server sizes chunks to keep each
 * transaction short.
 *
 * Row numbers: the line of the file a row starts on, the header being line 1. That is the
 * row number a spreadsheet shows, as long as no cell holds a line break.
 *
 * A row whose `externalId` the account already has (from an earlier run, or earlier in this
 * file) is skipped: neither imported again nor rejected.
 */
import { ID_PREFIX, newId } from '../../shared/ids.ts';
import type { DonationCreateBody } from '../../shared/schemas/donations.ts';
import type { ImportJob } from '../../shared/schemas/imports.ts';
import { insertMany, insertObjects, prepare } from '../db/bulk.ts';
import type { DonationAccountRow, DonationRow } from '../db/schema.ts';
import type { Db } from '../db/store.ts';
import { requireAccount } from './accounts.ts';
import { bumpCounters, changeLogRow } from './change-log.ts';
import { type NewContactRecord, insertContactRecords } from './contacts.ts';
import type { DomainContext } from './context.ts';
import { CONTACT_REF_FIELD, type ImportKind, planColumns } from './csv-columns.ts';
import { type CsvProgress, type CsvRecord, readCsv } from './csv-reader.ts';
import { listCustomFields } from './custom-fields.ts';
import { DONATION_REFERENCES, addToDonorTotals, donationRow, referenceNotFound } from './donations.ts';
import { electionFromCalendar, loadElectionCalendar } from './elections.ts';
import { DomainError } from './errors.ts';
import { type Checked, type ContactCandidate, type DonationCandidate, type Rejection, type RowSource, fileSource, inProcessSource } from './import-rows.ts';
import { accountLimits, flagRows } from './limits.ts';

export type { Rejection };

export interface ImportProgress {
  /** Data rows handled so far: imported + rejected + skipped. */
  processed: number;
  imported: number;
  rejected: number;
  skipped: number;
  /** Bytes of the file read so far (CSV sources). */
  bytes: number;
}

export interface ImportResult {
  imported: number;
  /** Every rejected row (unless `collectRejected: false`, when the job table keeps them). */
  rejected: Rejection[];
  rejectedCount: number;
  skipped: number;
  processed: number;
}

export interface ImportOptions {
  kind: ImportKind;
  accountId: string;
  /** false: history HQ already has (its outbox rows are not pushed). Default true. */
  push?: boolean;
  /** An `imports` row: progress and rejected rows are recorded in each chunk's own transaction. */
  jobId?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Rows per transaction (the first chunk's, when targetChunkMs adapts it). */
  chunkRows?: number;
  /** Size chunks so each takes about this long (the server keeps its event loop free). */
  targetChunkMs?: number;
  signal?: AbortSignal;
  /** Keep the rejected rows in the result (default true). */
  collectRejected?: boolean;
}

/** Imports CSV bytes from a stream (its rows are checked in this thread). */
export function importCsv(ctx: DomainContext, opts: ImportOptions, source: AsyncIterable<Uint8Array | string>): Promise<ImportResult> {
  const progress: CsvProgress = { bytes: 0 };
  return runImport(ctx, opts, inProcessSource(opts.kind, opts.accountId, readCsv(source, progress), progress));
}

/** Imports records already split into cells, the header first (demo data). */
export function importRecords(ctx: DomainContext, opts: ImportOptions, batches: AsyncIterable<CsvRecord[]>): Promise<ImportResult> {
  return runImport(ctx, opts, inProcessSource(opts.kind, opts.accountId, batches));
}

/** Imports a CSV file (the CLI; the server's uploads). */
export function importCsvFile(ctx: DomainContext, opts: ImportOptions, file: string): Promise<ImportResult> {
  return runImport(ctx, opts, fileSource(opts.kind, opts.accountId, file));
}

const DEFAULT_CHUNK = 2000;
const MIN_CHUNK = 50;
const MAX_CHUNK = 100000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The import loop: checked rows from the source, a chunk at a time, each written in one
 * transaction, the event loop given a turn between chunks.
 */
async function runImport(ctx: DomainContext, opts: ImportOptions, source: RowSource): Promise<ImportResult> {
  try {
    await requireAccount(ctx, opts.accountId);
    const defsNow = () => listCustomFields(ctx.store.db, opts.accountId);
    await source.start(await defsNow());
    const keep = opts.collectRejected !== false;
    const totals = { processed: 0, imported: 0, rejected: 0, skipped: 0 };
    const rejected: Rejection[] = [];
    const cache: ContactCache = { ids: new Set(), refs: new Map() };
    let chunkRows = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, opts.chunkRows ?? DEFAULT_CHUNK));
    for (;;) {
      if (opts.signal?.aborted) throw new DomainError('conflict', 'import_stopped', 'The import was stopped before the end of the file');
      const started = performance.now();
      const at = ctx.now();
      const chunk = await source.next(chunkRows, at, opts.kind === 'contacts' ? await defsNow() : []);
      if (!chunk) break;
      await nextTurn();
      const outcome = await writeChunk(ctx, opts, chunk.checked, at, cache);
      totals.processed += chunk.records;
      totals.imported += outcome.imported;
      totals.skipped += outcome.skipped;
      totals.rejected += outcome.rejections.length;
      if (keep) for (const r of outcome.rejections) rejected.push(r);
      opts.onProgress?.({ ...totals, bytes: chunk.bytes });
      if (opts.targetChunkMs) {
        // Rows per chunk follow the time a row took (smoothed), toward targetChunkMs a chunk.
        const perRow = (performance.now() - started) / chunk.records;
        const next = opts.targetChunkMs / Math.max(perRow, 0.001);
        chunkRows = Math.round(Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, (chunkRows + next) / 2)));
      }
      await nextTurn();
    }
    return { imported: totals.imported, rejected, rejectedCount: totals.rejected, skipped: totals.skipped, processed: totals.processed };
  } finally {
    await source.close();
  }
}

/* ---------------- writing a chunk (one transaction) ---------------- */

interface ChunkOutcome {
  imported: number;
  skipped: number;
  rejections: Rejection[];
}

/** A chunk whose premises moved under it (a donor deleted concurrently, on PostgreSQL): run it again. */
class ChunkRetry extends Error {}

async function writeChunk(ctx: DomainContext, opts: ImportOptions, checked: Checked<ContactCandidate> | Checked<DonationCandidate>, at: string, cache: ContactCache): Promise<ChunkOutcome> {
  const hasWork = checked.candidates.length > 0 || opts.jobId !== undefined;
  if (!hasWork) return { imported: 0, skipped: 0, rejections: checked.rejections };
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.store.write(async (trx) => {
        const outcome =
          opts.kind === 'contacts'
            ? await writeContacts(trx, opts, checked.candidates as ContactCandidate[], at)
            : await writeDonations(trx, opts, checked.candidates as DonationCandidate[], at, cache);
        const rejections = mergeByRow(checked.rejections, outcome.rejections);
        if (opts.jobId) await recordProgress(trx, opts.jobId, outcome.imported, outcome.skipped, rejections);
        return { imported: outcome.imported, skipped: outcome.skipped, rejections };
      }, { bulk: true });
    } catch (err) {
      if (err instanceof ChunkRetry && attempt < 3) {
        cache.ids.clear();
        cache.refs.clear();
        continue;
      }
      throw err;
    }
  }
}

function mergeByRow(a: Rejection[], b: Rejection[]): Rejection[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...a, ...b].sort((x, y) => x.row - y.row);
}

async function recordProgress(trx: Db, jobId: string, imported: number, skipped: number, rejections: Rejection[]): Promise<void> {
  const processed = imported + skipped + rejections.length;
  await trx
    .updateTable('imports')
    .set((eb) => ({
      processedRows: eb('processedRows', '+', processed),
      importedRows: eb('importedRows', '+', imported),
      skippedRows: eb('skippedRows', '+', skipped),
      rejectedCount: eb('rejectedCount', '+', rejections.length),
    }))
    .where('id', '=', jobId)
    .execute();
  await insertMany(trx, 'importRejections', ['importId', 'rowNo', 'reason'], rejections.map((r) => [jobId, r.row, r.reason]));
}

/** Runs fn over values in slices small enough for one statement's parameters. */
async function inSlices<T, R>(values: readonly T[], fn: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += 900) out.push(...(await fn(values.slice(i, i + 900))));
  return out;
}

/** Which of `ids` are rows of the account: looked up by primary key, the account checked here. */
async function idsInAccount(trx: Db, table: 'contacts' | 'donations', accountId: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inSlices(ids, (s) => trx.selectFrom(table).select(['id', 'accountId']).where('id', 'in', s).execute());
  return new Set(rows.filter((r) => r.accountId === accountId).map((r) => r.id));
}

/** The externalIds among `refs` that the table already has, as an external id or as an id. */
async function existingRefs(trx: Db, table: 'contacts' | 'donations', accountId: string, refs: readonly string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const byExternal = await inSlices(refs, (s) => trx.selectFrom(table).select('externalId').where('accountId', '=', accountId).where('externalId', 'in', s).execute());
  const found = new Set(byExternal.map((r) => r.externalId as string));
  // An export of this very database names records without an external id by their own id.
  const prefix = table === 'contacts' ? `${ID_PREFIX.contact}_` : `${ID_PREFIX.donation}_`;
  for (const id of await idsInAccount(trx, table, accountId, refs.filter((r) => !found.has(r) && r.startsWith(prefix)))) found.add(id);
  return found;
}

async function writeContacts(trx: Db, opts: ImportOptions, candidates: ContactCandidate[], at: string): Promise<ChunkOutcome> {
  const refs = [...new Set(candidates.map((c) => c.record.row.externalId).filter((x): x is string => x !== null))];
  const existing = await existingRefs(trx, 'contacts', opts.accountId, refs);
  const records: NewContactRecord[] = [];
  let skipped = 0;
  for (const c of candidates) {
    const ext = c.record.row.externalId;
    if (ext !== null) {
      if (existing.has(ext)) {
        skipped += 1;
        continue;
      }
      existing.add(ext);
    }
    records.push(c.record);
  }
  await insertContactRecords(trx, records);
  if (records.length > 0) {
    await bumpCounters(trx, opts.accountId, { contacts: records.length });
    await insertObjects(trx, 'changeLog', records.map((r) => changeLogRow({ accountId: opts.accountId, entityType: 'contact', entityId: r.row.id, op: 'create', fields: null, push: opts.push, at })));
  }
  return { imported: records.length, skipped, rejections: [] };
}

/** Contacts an import has found so far, kept across its chunks (forgotten when a chunk is retried). */
interface ContactCache {
  /** ids of contacts of the account */
  ids: Set<string>;
  /** external reference (or a contact's own id) → contact id */
  refs: Map<string, string>;
}

interface ReferenceSets {
  campaigns: Set<string>;
  committees: Set<string>;
  donationAccounts: Map<string, DonationAccountRow>;
  contacts: ContactCache;
}

/** Contacts remembered across chunks, at most (a file of a million donors must not hold them all). */
const CONTACT_CACHE_MAX = 100_000;

async function loadReferences(trx: Db, accountId: string, candidates: DonationCandidate[], cache: ContactCache): Promise<ReferenceSets> {
  if (cache.ids.size + cache.refs.size > CONTACT_CACHE_MAX) {
    cache.ids.clear();
    cache.refs.clear();
  }
  const campaigns = await trx.selectFrom('campaigns').select('id').where('accountId', '=', accountId).execute();
  const committees = await trx.selectFrom('committees').select('id').where('accountId', '=', accountId).execute();
  const dacs = await trx.selectFrom('donationAccounts').selectAll().where('accountId', '=', accountId).execute();
  const ids = new Set<string>();
  const refs = new Set<string>();
  for (const c of candidates) {
    if (!c.contactViaRef && !cache.ids.has(c.input.contactId)) ids.add(c.input.contactId);
    for (const id of [c.input.onBehalfOfContactId, c.input.facilitatedByContactId]) if (id && !cache.ids.has(id)) ids.add(id);
    for (const v of Object.values(c.refs)) if (v !== undefined && !cache.refs.has(v)) refs.add(v);
  }
  for (const id of await idsInAccount(trx, 'contacts', accountId, [...ids])) cache.ids.add(id);
  if (refs.size > 0) {
    const byExternal = await inSlices([...refs], (s) => trx.selectFrom('contacts').select(['id', 'externalId']).where('accountId', '=', accountId).where('externalId', 'in', s).execute());
    for (const r of byExternal) cache.refs.set(r.externalId as string, r.id);
    const unmatched = [...refs].filter((r) => !cache.refs.has(r) && r.startsWith(`${ID_PREFIX.contact}_`));
    for (const id of await idsInAccount(trx, 'contacts', accountId, unmatched)) cache.refs.set(id, id);
  }
  return {
    campaigns: new Set(campaigns.map((r) => r.id)),
    committees: new Set(committees.map((r) => r.id)),
    donationAccounts: new Map(dacs.map((d) => [d.id, d])),
    contacts: cache,
  };
}

/** Resolves a candidate's contacts and checks every reference, as the API does; a reason or null. */
function resolveDonation(c: DonationCandidate, refs: ReferenceSets): { input: DonationCreateBody } | { reason: string } {
  const input = { ...c.input };
  // the donor (D3)
  if (c.refs.contactExternalId !== undefined) {
    const id = refs.contacts.refs.get(c.refs.contactExternalId);
    if (id === undefined) return { reason: `contactExternalId ${c.refs.contactExternalId} matches no contact in this account` };
    if (!c.contactViaRef && id !== c.input.contactId) return { reason: `contactId ${c.input.contactId} and contactExternalId ${c.refs.contactExternalId} name different contacts` };
    input.contactId = id;
  } else if (!refs.contacts.ids.has(input.contactId)) {
    return { reason: referenceNotFound('contact', 'contactId', input.contactId).message };
  }
  const viaRef = new Set<string>();
  for (const ref of ['onBehalfOfContactExternalId', 'facilitatedByContactExternalId'] as const) {
    const v = c.refs[ref];
    if (v === undefined) continue;
    const id = refs.contacts.refs.get(v);
    if (id === undefined) return { reason: `${ref} ${v} matches no contact in this account` };
    input[CONTACT_REF_FIELD[ref]] = id;
    viaRef.add(CONTACT_REF_FIELD[ref]);
  }
  for (const [field, table, noun] of DONATION_REFERENCES) {
    const id = input[field];
    if (typeof id !== 'string' || id.length === 0 || viaRef.has(field)) continue;
    const exists = table === 'campaigns' ? refs.campaigns.has(id) : table === 'committees' ? refs.committees.has(id) : table === 'donationAccounts' ? refs.donationAccounts.has(id) : refs.contacts.ids.has(id);
    if (!exists) return { reason: referenceNotFound(noun, field, id).message };
  }
  return { input };
}

async function writeDonations(trx: Db, opts: ImportOptions, candidates: DonationCandidate[], at: string, cache: ContactCache): Promise<ChunkOutcome> {
  if (candidates.length === 0) return { imported: 0, skipped: 0, rejections: [] };
  const accountId = opts.accountId;
  const refs = await loadReferences(trx, accountId, candidates, cache);
  const calendar = await loadElectionCalendar(trx, accountId);
  const externalIds = [...new Set(candidates.map((c) => c.externalId).filter((x): x is string => x !== null))];
  const existing = await existingRefs(trx, 'donations', accountId, externalIds);

  const rows: DonationRow[] = [];
  const rejections: Rejection[] = [];
  let skipped = 0;
  const donors = new Map<string, { cents: number; latest: string }>();
  for (const c of candidates) {
    if (c.externalId !== null) {
      if (existing.has(c.externalId)) {
        skipped += 1;
        continue;
      }
    }
    const resolved = resolveDonation(c, refs);
    if ('reason' in resolved) {
      rejections.push({ row: c.row, reason: resolved.reason });
      continue;
    }
    if (c.externalId !== null) existing.add(c.externalId);
    const input = resolved.input;
    const election = electionFromCalendar(calendar, c.checked.donationDate, input);
    const row = donationRow(input, c.checked, election, newId('donation'), at, c.externalId);
    rows.push(row);
    const d = donors.get(row.contactId);
    if (d) {
      d.cents += row.amountCents;
      if (row.donationDate > d.latest) d.latest = row.donationDate;
    } else {
      donors.set(row.contactId, { cents: row.amountCents, latest: row.donationDate });
    }
  }
  if (rows.length === 0) return { imported: 0, skipped, rejections };

  // Donor totals first: each UPDATE is also the donor's row lock (PostgreSQL), as in the API.
  const addTotals = prepare(trx, (p) => addToDonorTotals(trx, { accountId: p(0), contactId: p(1), cents: p(2), latestDate: p(3) }));
  // In id order: neighbouring rows, and on PostgreSQL one lock order for every writer.
  for (const [contactId, d] of [...donors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const r = await addTotals([accountId, contactId, d.cents, d.latest]);
    if (Number(r.numAffectedRows ?? 0) === 0) throw new ChunkRetry(`contact ${contactId} vanished during the import`);
  }

  const flags = await checkChunkLimits(trx, rows, refs, at);
  await insertObjects(trx, 'donations', rows);
  await insertObjects(trx, 'limitFlags', flags.map((f) => f.flag));
  await insertObjects(trx, 'donationHistory', flags.map((f) => f.history));
  await insertObjects(trx, 'changeLog', rows.map((r) => changeLogRow({ accountId, entityType: 'donation', entityId: r.id, op: 'create', push: opts.push, at })));
  await bumpCounters(trx, accountId, { donations: rows.length });
  return { imported: rows.length, skipped, rejections };
}

/**
 * D6 for a chunk, in file order: each gift is checked against its donor's completed total in
 * each limit window — everything already saved plus the gifts before it in the file — exactly
 * as if the rows had been posted one by one.
 */
async function checkChunkLimits(trx: Db, rows: DonationRow[], refs: ReferenceSets, at: string): Promise<Array<ReturnType<typeof flagRows>>> {
  const limited = rows.filter((r) => r.donationAccountId !== null && accountLimits(refs.donationAccounts.get(r.donationAccountId)!).length > 0);
  if (limited.length === 0) return [];
  const years = new Set<string>();
  for (const r of limited) {
    const y = Number(r.donationDate.slice(0, 4));
    const end = y % 2 === 0 ? y : y + 1;
    for (const x of [y, end - 1, end]) years.add(String(x).padStart(4, '0'));
  }
  const yearList = [...years];
  const dacs = [...new Set(limited.map((r) => r.donationAccountId as string))];
  const contacts = [...new Set(limited.map((r) => r.contactId))];

  interface Windows {
    donor: number;
    byElection: Map<string, number>;
    byYear: Map<string, number>;
  }
  const windows = new Map<string, Windows>();
  const windowsOf = (dac: string, contact: string): Windows => {
    const k = `${dac}\u0000${contact}`;
    let w = windows.get(k);
    if (!w) {
      w = { donor: 0, byElection: new Map(), byYear: new Map() };
      windows.set(k, w);
    }
    return w;
  };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

  const saved = await inSlices(contacts, (slice) =>
    trx
      .selectFrom('donations')
      .select(['donationAccountId', 'contactId', 'electionType', 'electionYear'])
      .select((eb) => [
        eb.fn.sum<number>('amountCents').as('total'),
        ...yearList.map((y, i) =>
          eb.fn
            .sum<number>(
              eb
                .case()
                .when(eb.and([eb('donationDate', '>=', `${y}-01-01T00:00:00.000Z`), eb('donationDate', '<=', `${y}-12-31T23:59:59.999Z`)]))
                .then(eb.ref('amountCents'))
                .else(eb.lit(0))
                .end(),
            )
            .as(`y${i}`),
        ),
      ])
      .where('status', '=', 'completed')
      .where('donationAccountId', 'in', dacs)
      .where('contactId', 'in', slice)
      .groupBy(['donationAccountId', 'contactId', 'electionType', 'electionYear'])
      .execute(),
  );
  for (const s of saved) {
    const w = windowsOf(s.donationAccountId as string, s.contactId);
    w.donor += Number(s.total);
    add(w.byElection, `${s.electionType}-${s.electionYear}`, Number(s.total));
    const byYear = s as unknown as Record<string, number | string | null>;
    yearList.forEach((y, i) => add(w.byYear, y, Number(byYear[`y${i}`] ?? 0)));
  }

  const flags: Array<ReturnType<typeof flagRows>> = [];
  for (const r of limited) {
    const account = refs.donationAccounts.get(r.donationAccountId!)!;
    const w = windowsOf(account.id, r.contactId);
    const year = r.donationDate.slice(0, 4);
    w.donor += r.amountCents;
    add(w.byElection, `${r.electionType}-${r.electionYear}`, r.amountCents);
    add(w.byYear, year, r.amountCents);
    for (const [kind, limit] of accountLimits(account)) {
      let total: number;
      if (kind === 'per_donor') total = w.donor;
      else if (kind === 'per_election') total = w.byElection.get(`${r.electionType}-${r.electionYear}`) ?? 0;
      else if (kind === 'per_year') total = w.byYear.get(year) ?? 0;
      else {
        const y = Number(year);
        const end = y % 2 === 0 ? y : y + 1;
        total = (w.byYear.get(String(end - 1).padStart(4, '0')) ?? 0) + (w.byYear.get(String(end).padStart(4, '0')) ?? 0);
      }
      if (total > limit) flags.push(flagRows(r, kind, limit, total, at));
    }
  }
  return flags;
}

/* ---------------- import jobs (the HTTP route runs imports in the background) ---------------- */

export type { ImportJob };

export async function createImportJob(ctx: DomainContext, p: { accountId: string; kind: ImportKind; push: boolean; totalRows: number }): Promise<ImportJob> {
  await requireAccount(ctx, p.accountId);
  const id = newId('importJob');
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .insertInto('imports')
      .values({ id, accountId: p.accountId, kind: p.kind, status: 'running', totalRows: p.totalRows, processedRows: 0, importedRows: 0, rejected: '[]', push: p.push ? 1 : 0, error: null, createdAt: at, finishedAt: null })
      .execute(),
  );
  return (await getImportJob(ctx, p.accountId, id))!;
}

export async function getImportJob(ctx: DomainContext, accountId: string, id: string): Promise<ImportJob | undefined> {
  const r = await ctx.store.db.selectFrom('imports').selectAll().where('id', '=', id).where('accountId', '=', accountId).executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    kind: r.kind as ImportKind,
    status: r.status,
    push: r.push === 1,
    totalRows: Number(r.totalRows),
    processedRows: Number(r.processedRows),
    imported: Number(r.importedRows),
    rejectedCount: Number(r.rejectedCount),
    skipped: Number(r.skippedRows),
    error: r.error,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}

export async function requireImportJob(ctx: DomainContext, accountId: string, id: string): Promise<ImportJob> {
  const job = await getImportJob(ctx, accountId, id);
  if (!job) throw new DomainError('not_found', 'import_not_found', `Import ${id} was not found`, [{ field: 'id', issue: 'does not exist in this account' }]);
  return job;
}

/** Marks a job finished: done (totalRows becomes the rows actually read), or failed with a reason. */
export async function finishImportJob(ctx: DomainContext, id: string, outcome: { status: 'done' } | { status: 'failed'; error: string }): Promise<void> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (outcome.status === 'done') {
      await trx.updateTable('imports').set((eb) => ({ status: 'done', totalRows: eb.ref('processedRows'), finishedAt: at })).where('id', '=', id).execute();
    } else {
      await trx.updateTable('imports').set({ status: 'failed', error: outcome.error, finishedAt: at }).where('id', '=', id).execute();
    }
  });
}

/** Jobs left running by a process that stopped (the server starts): they will not finish. */
export async function failInterruptedImports(ctx: DomainContext): Promise<number> {
  const at = ctx.now();
  return ctx.store.write(async (trx) => {
    const r = await trx
      .updateTable('imports')
      .set({ status: 'failed', error: 'interrupted: GiftDesk stopped before the import finished; the rows counted as imported are saved (import the file again: rows with an externalId are not added twice)', finishedAt: at })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
}

/** The rejected rows of a job, in row order, a page at a time. */
export async function* importRejections(ctx: DomainContext, id: string): AsyncGenerator<Rejection[]> {
  let after = 0;
  for (;;) {
    const page = await ctx.store.db.selectFrom('importRejections').select(['rowNo', 'reason']).where('importId', '=', id).where('rowNo', '>', after).orderBy('rowNo').limit(1000).execute();
    if (page.length === 0) return;
    yield page.map((r) => ({ row: Number(r.rowNo), reason: r.reason }));
    after = Number(page[page.length - 1]!.rowNo);
  }
}

/** A header check before a job starts (the route answers 400 at once for a file it would refuse). */
export async function checkImportHeader(ctx: DomainContext, kind: ImportKind, accountId: string, header: readonly string[]): Promise<void> {
  await requireAccount(ctx, accountId);
  planColumns(kind, header, await listCustomFields(ctx.store.db, accountId));
}
