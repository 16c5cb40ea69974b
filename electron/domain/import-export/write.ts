/**
 * The second half of an import: writing a chunk of checked rows in one transaction. The
 * references are resolved with one query per kind for the whole chunk (gift-references.ts),
 * duplicates of an earlier run are skipped by externalId, and the rows go in with multi-row
 * INSERTs compiled once; the account's counts move once per chunk, donors' totals once per
 * chunk and donor (or, with deferTotals on SQLite, once per import:
 * electron/db/donor-total-deltas.ts).
 */
import { ID_PREFIX, newId } from '#shared/ids.ts';
import { insertMany, insertObjects } from '../../db/bulk.ts';
import type { DonationRow } from '../../db/schema.ts';
import type { Engine } from '../../db/migration-types.ts';
import type { Db } from '../../db/store.ts';
import { changeLogRow } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { insertContactRecords, type NewContactRecord } from '../contacts/records.ts';
import type { DomainContext } from '../context.ts';
import type { ImportKind } from './csv-columns.ts';
import { addManyToDonorTotals, donationRow } from '../donations/rules.ts';
import { electionFromCalendar, loadElectionCalendar } from '../limits/elections.ts';
import { checkChunkLimits, inSlices } from '../limits/for-import.ts';
import { type ContactCache, idsInAccount, loadReferences, resolveDonation } from './gift-references.ts';
import type { Checked, ContactCandidate, DonationCandidate, Rejection } from './rows.ts';

/** What a chunk's write needs to know of its import. */
export interface ChunkSpec {
  kind: ImportKind;
  accountId: string;
  /** false: history HQ already has (its outbox rows are not pushed). Default true. */
  push?: boolean;
  /** An `imports` row: progress and rejected rows are recorded in the chunk's own transaction. */
  jobId?: string;
  /**
   * SQLite: a chunk records its donors' totals as deltas (electron/db/donor-total-deltas.ts),
   * applied in one sorted pass when the import ends, instead of updating each donor's row per
   * chunk. The CLI's bulk import; donors' totals leave out its gifts until then.
   */
  deferTotals?: boolean;
}

export interface ChunkOutcome {
  imported: number;
  skipped: number;
  rejections: Rejection[];
}

/** A chunk whose premises moved under it (a donor deleted concurrently, on PostgreSQL): run it again. */
class ChunkRetry extends Error {}

export async function writeChunk(
  ctx: DomainContext,
  opts: ChunkSpec,
  checked: Checked<ContactCandidate> | Checked<DonationCandidate>,
  at: string,
  cache: ContactCache,
): Promise<ChunkOutcome> {
  const hasWork = checked.candidates.length > 0 || opts.jobId !== undefined;
  if (!hasWork) return { imported: 0, skipped: 0, rejections: checked.rejections };
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.store.write(
        async (trx) => {
          const outcome =
            opts.kind === 'contacts'
              ? await writeContacts(trx, opts, checked.candidates as ContactCandidate[], at)
              : await writeDonations(
                  trx,
                  ctx.store.engine,
                  opts,
                  checked.candidates as DonationCandidate[],
                  at,
                  cache,
                );
          const rejections = mergeByRow(checked.rejections, outcome.rejections);
          if (opts.jobId)
            await recordProgress(trx, opts.jobId, outcome.imported, outcome.skipped, rejections);
          return { imported: outcome.imported, skipped: outcome.skipped, rejections };
        },
        { bulk: true },
      );
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

async function recordProgress(
  trx: Db,
  jobId: string,
  imported: number,
  skipped: number,
  rejections: Rejection[],
): Promise<void> {
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
  await insertMany(
    trx,
    'importRejections',
    ['importId', 'rowNo', 'reason'],
    rejections.map((r) => [jobId, r.row, r.reason]),
  );
}

/** The externalIds among `refs` that the table already has, as an external id or as an id. */
async function existingRefs(
  trx: Db,
  table: 'contacts' | 'donations',
  accountId: string,
  refs: readonly string[],
): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const byExternal = await inSlices(refs, (s) =>
    trx
      .selectFrom(table)
      .select('externalId')
      .where('accountId', '=', accountId)
      .where('externalId', 'in', s)
      .execute(),
  );
  const found = new Set(byExternal.map((r) => r.externalId as string));
  // An export of this very database names records without an external id by their own id.
  const prefix = table === 'contacts' ? `${ID_PREFIX.contact}_` : `${ID_PREFIX.donation}_`;
  for (const id of await idsInAccount(
    trx,
    table,
    accountId,
    refs.filter((r) => !found.has(r) && r.startsWith(prefix)),
  ))
    found.add(id);
  return found;
}

async function writeContacts(
  trx: Db,
  opts: ChunkSpec,
  candidates: ContactCandidate[],
  at: string,
): Promise<ChunkOutcome> {
  const refs = [
    ...new Set(candidates.map((c) => c.record.row.externalId).filter((x): x is string => x !== null)),
  ];
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
    await insertObjects(
      trx,
      'changeLog',
      records.map((r) =>
        changeLogRow({
          accountId: opts.accountId,
          entityType: 'contact',
          entityId: r.row.id,
          op: 'create',
          fields: null,
          push: opts.push,
          at,
        }),
      ),
    );
  }
  return { imported: records.length, skipped, rejections: [] };
}

async function writeDonations(
  trx: Db,
  engine: Engine,
  opts: ChunkSpec,
  candidates: DonationCandidate[],
  at: string,
  cache: ContactCache,
): Promise<ChunkOutcome> {
  if (candidates.length === 0) return { imported: 0, skipped: 0, rejections: [] };
  const accountId = opts.accountId;
  const refs = await loadReferences(trx, accountId, candidates, cache);
  const calendar = await loadElectionCalendar(trx, accountId);
  const externalIds = [
    ...new Set(candidates.map((c) => c.externalId).filter((x): x is string => x !== null)),
  ];
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

  const deferred = opts.deferTotals === true && engine === 'sqlite';
  if (deferred) {
    await insertMany(
      trx,
      'donorTotalDeltas',
      ['contactId', 'cents', 'latestDate'],
      [...donors].map(([contactId, d]) => [contactId, d.cents, d.latest]),
    );
  } else {
    // Donor totals first: on PostgreSQL each UPDATE is also the donor's row lock, as in the API.
    const moved = await addManyToDonorTotals(trx, engine, accountId, donors);
    if (moved !== donors.size)
      throw new ChunkRetry(`${donors.size - moved} of the chunk's donors vanished during the import`);
  }

  const flags = await checkChunkLimits(trx, rows, refs.donationAccounts, at);
  try {
    await insertObjects(trx, 'donations', rows);
  } catch (err) {
    // Deferred totals do not find the donors: a donor (or campaign) deleted since an earlier
    // chunk looked it up fails the gift's foreign key instead. Look them up again.
    if (deferred && (err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
      throw new ChunkRetry('a donor or reference of the chunk vanished during the import');
    throw err;
  }
  await insertObjects(
    trx,
    'limitFlags',
    flags.map((f) => f.flag),
  );
  await insertObjects(
    trx,
    'donationHistory',
    flags.map((f) => f.history),
  );
  await insertObjects(
    trx,
    'changeLog',
    rows.map((r) =>
      changeLogRow({ accountId, entityType: 'donation', entityId: r.id, op: 'create', push: opts.push, at }),
    ),
  );
  await bumpCounters(trx, accountId, { donations: rows.length });
  return { imported: rows.length, skipped, rejections };
}

/** Donors in a chunk's UPDATE of totals (3 values each). */
