/**
 * Pull: HQ's directory comes down so that gift entry at an event finds the donors HQ already
 * has instead of creating duplicates.
 *
 * - Reference data first (reference-data/pull.ts): campaigns, committees, donation accounts
 *   where HQ lists them, custom fields matched by name.
 * - Then contacts, through the spec's list (GET /contacts, 100 a page, oldest first so that
 *   contacts HQ adds meanwhile land on later pages instead of shifting earlier ones), every
 *   request through the remote's pacer. Each page is written in one transaction of its own,
 *   with the run's progress, and the event loop is yielded between pages: a 1,000-page pull
 *   never holds the database or the server for more than a page.
 * - Written records carry `push = 0` in the change log (HQ has them; the engine never sends
 *   them back) and a link to their HQ id (sync_links, source `pulled`), in the same
 *   transaction: a re-pull finds the link and updates the record, it never adds a second.
 * - Local intent wins: a field the user changed here that is not pushed yet (an unsynced
 *   change-log row with push = 1) is not overwritten; the push carries it to HQ. Other
 *   fields of that contact are brought up to HQ's values.
 * - A contact HQ has and the directory has under no link is linked, not copied: an exact
 *   primary-email match (when email match is on; else email and both names) with a local
 *   contact that never goes to HQ by itself (history imported with --no-push). A contact
 *   made here whose create is not confirmed yet (pending, in flight, outcome unknown) is the
 *   engine's to link (email match, reconciliation): HQ's record that looks like it is left
 *   for that push instead of being pulled as a second local copy.
 * - What the spec's list cannot tell is not pulled: custom field values, sub-records beyond
 *   the shown email and phone, donations, and contacts deleted at HQ (a deleted contact is
 *   simply no longer listed; its local copy stays).
 * - A finished run records how far it knows HQ's contacts (the newest createdAt it listed, the
 *   email match's directory, email-match.ts), and lists the contacts it left for the engine
 *   (above) there: the email match answers from that instead of searching HQ per contact.
 * - A run is resumable: it records the offset of the next page; a run whose process died
 *   (no heartbeat for a minute) is picked up where it stopped by the next pull.
 *
 * This file runs the pull (the run's row, the page loop); apply-page.ts writes each page,
 * counts.ts says what a run counts.
 */
import { newId } from '#shared/ids.ts';
import type { DomainContext } from '../../domain/context.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SyncPullRunsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import type { Clock } from '../net/clock.ts';
import { loadDirectory, saveDirectory, watermarkAfter } from '../push/email-match.ts';
import { askWhetherHqTakesMarks, noteMarksTaken } from '../push/marks.ts';
import { applyContactPage } from './apply-page.ts';
import { type PullCounts, zeroCounts } from './counts.ts';
import { pullReferenceData } from '../reference-data/pull.ts';
import { type RemoteReader, getJson, remoteMessage } from '../net/read.ts';

export const PULL_PAGE_SIZE = 100;
/** A running pull without a heartbeat for this long is taken to have died. */
export const PULL_STALE_MS = 60_000;

export interface PullRun {
  id: string;
  accountId: string;
  status: 'running' | 'done' | 'failed';
  phase: 'reference' | 'contacts';
  pagesDone: number;
  pagesTotal: number | null;
  counts: PullCounts;
  notes: string[];
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface PullProgress {
  phase: 'reference' | 'contacts';
  pagesDone: number;
  pagesTotal: number | null;
}

export interface PullOptions {
  ctx: DomainContext;
  remote: RemoteReader;
  accountId: string;
  remoteAccountId: string;
  /** Link an HQ contact to an unlinked local one with the same primary email (default on). */
  emailMatch?: boolean;
  pageSize?: number;
  clock?: Clock;
  signal?: AbortSignal;
  onProgress?: (p: PullProgress) => void;
  /** Skip reference data (campaigns, …): contacts only. */
  contactsOnly?: boolean;
}

/** At most this many notes are kept on a run (the first ones; a count says how many more). */
const MAX_NOTES = 50;

function toRun(r: SyncPullRunsTable): PullRun {
  return {
    id: r.id,
    accountId: r.accountId,
    status: r.status as PullRun['status'],
    phase: r.phase as PullRun['phase'],
    pagesDone: Number(r.pagesDone),
    pagesTotal: r.pagesTotal === null ? null : Number(r.pagesTotal),
    counts: { ...zeroCounts(), ...(JSON.parse(r.counts) as Partial<PullCounts>) },
    notes: JSON.parse(r.notes) as string[],
    error: r.error,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  };
}

/** The account's latest pull (running or finished), or null when it never pulled. */
export async function latestPull(db: Db, accountId: string): Promise<PullRun | null> {
  const r = await db
    .selectFrom('syncPullRuns')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('startedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? toRun(r) : null;
}

const ageMs = (iso: string, nowMs: number) => nowMs - Date.parse(iso);

/**
 * Begins a run, or takes over one whose process died (resuming at its next page). Refused
 * (409) while another run of the account is alive.
 */
export async function beginPull(
  ctx: DomainContext,
  accountId: string,
): Promise<{ run: PullRun; nextOffset: number; resumed: boolean }> {
  const at = ctx.now();
  return ctx.store.write(async (trx) => {
    const last = await trx
      .selectFrom('syncPullRuns')
      .selectAll()
      .where('accountId', '=', accountId)
      .orderBy('startedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last?.status === 'running' && ageMs(last.heartbeatAt, Date.parse(at)) < PULL_STALE_MS) {
      throw new DomainError(
        'conflict',
        'pull_running',
        `A pull from HQ is running already (started ${last.startedAt}, ${last.pagesDone}${last.pagesTotal ? ` of ${last.pagesTotal}` : ''} pages done)`,
        [{ field: 'accountId', issue: 'has a pull running' }],
      );
    }
    // A run that stopped part-way (its process died, HQ stopped answering, it was stopped)
    // goes on from its next page.
    if (last && last.status !== 'done') {
      const patch = {
        status: 'running',
        error: null,
        finishedAt: null,
        heartbeatAt: at,
        phase: 'reference',
      } as const;
      await trx.updateTable('syncPullRuns').set(patch).where('id', '=', last.id).execute();
      return { run: toRun({ ...last, ...patch }), nextOffset: Number(last.nextOffset), resumed: true };
    }
    const row: SyncPullRunsTable = {
      id: newId('syncPull'),
      accountId,
      status: 'running',
      phase: 'reference',
      pagesDone: 0,
      pagesTotal: null,
      nextOffset: 0,
      counts: JSON.stringify(zeroCounts()),
      notes: '[]',
      error: null,
      startedAt: at,
      heartbeatAt: at,
      finishedAt: null,
    };
    await trx.insertInto('syncPullRuns').values(row).execute();
    return { run: toRun(row), nextOffset: 0, resumed: false };
  });
}

/** One pass over HQ's directory: begin (or resume), reference data, contacts page by page. */
export async function pullFromHq(opts: PullOptions): Promise<PullRun> {
  const { ctx, accountId } = opts;
  const begun = await beginPull(ctx, accountId);
  return runPull(opts, begun.run, begun.nextOffset);
}

/** Runs a begun pull to its end; the run's row says how it ended (never throws for HQ's failures). */
export async function runPull(opts: PullOptions, run: PullRun, startOffset: number): Promise<PullRun> {
  const { ctx, accountId } = opts;
  const pageSize = Math.min(100, Math.max(1, opts.pageSize ?? PULL_PAGE_SIZE));
  const counts = run.counts;
  const notes = run.notes;
  const note = (n: string) => {
    if (notes.length < MAX_NOTES) notes.push(n);
  };
  let pagesDone = run.pagesDone;
  let pagesTotal = run.pagesTotal;
  const save = async (trx: Db, patch: Partial<SyncPullRunsTable>) => {
    await trx
      .updateTable('syncPullRuns')
      .set({
        counts: JSON.stringify(counts),
        notes: JSON.stringify(notes),
        pagesDone,
        pagesTotal,
        heartbeatAt: ctx.now(),
        ...patch,
      })
      .where('id', '=', run.id)
      .execute();
  };
  const finish = async (status: 'done' | 'failed', error: string | null) => {
    await ctx.store.write((trx) => save(trx, { status, error, finishedAt: ctx.now() }));
    return (await latestPullById(ctx.store.db, run.id))!;
  };

  try {
    if (!opts.contactsOnly) {
      opts.onProgress?.({ phase: 'reference', pagesDone, pagesTotal });
      const ref = await pullReferenceData(ctx, opts.remote, {
        accountId,
        remoteAccountId: opts.remoteAccountId,
      });
      for (const k of Object.values(ref.kinds)) counts.reference += k.created + k.linked + k.renamed;
      for (const n of ref.notes) note(n);
      // Whether HQ takes thank-you marks, asked once with nothing in it, so the sync status
      // says it from now on (push/marks.ts), before any gift is marked.
      const takes = await askWhetherHqTakesMarks(opts.remote, opts.remoteAccountId, opts.signal);
      await ctx.store.write((trx) => noteMarksTaken(trx, accountId, takes, ctx.now()));
    }
    await ctx.store.write((trx) => save(trx, { phase: 'contacts' }));

    const emailMatch = opts.emailMatch ?? true;
    let offset = startOffset;
    let newest: string | null = null;
    let listed = 0;
    for (;;) {
      if (opts.signal?.aborted)
        return await finish('failed', 'The pull was stopped; the next pull resumes where this one stopped');
      opts.onProgress?.({ phase: 'contacts', pagesDone, pagesTotal });
      const q = {
        accountId: opts.remoteAccountId,
        limit: pageSize,
        offset,
        sortBy: 'createdAt',
        sortOrder: 'asc',
      };
      const r = await getJson(opts.remote, '/contacts', q, {
        clock: opts.clock,
        signal: opts.signal,
        attempts: 6,
      });
      if (!r.ok)
        return await finish(
          'failed',
          `HQ's contact list failed at offset ${offset}: ${remoteMessage(r)}. The next pull resumes there.`,
        );
      const body = r.body as { data?: unknown; contacts?: unknown; total?: unknown } | null;
      const items = Array.isArray(body?.data)
        ? (body.data as unknown[])
        : Array.isArray(body?.contacts)
          ? (body.contacts as unknown[])
          : null;
      if (!items)
        return await finish(
          'failed',
          `HQ's answer to GET /contacts has no list of contacts ("data"); nothing more was pulled`,
        );
      if (typeof body?.total === 'number' && Number.isFinite(body.total)) {
        pagesTotal = Math.max(pagesDone + (items.length > 0 ? 1 : 0), Math.ceil(body.total / pageSize));
      }
      const next = offset + items.length;
      listed += items.length;
      for (const raw of items) {
        const c = (raw as { createdAt?: unknown } | null)?.createdAt;
        if (
          typeof c === 'string' &&
          !Number.isNaN(Date.parse(c)) &&
          (newest === null || Date.parse(c) > Date.parse(newest))
        )
          newest = c;
      }
      await ctx.store.write(async (trx) => {
        await applyContactPage(trx, ctx, accountId, items, emailMatch, counts, note);
        pagesDone++;
        await save(trx, { nextOffset: next });
      });
      if (items.length > 0) ctx.store.changes.note(null); // open windows read again
      offset = next;
      if (items.length < pageSize) break;
      // Let the server answer its requests between two pages.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    pagesTotal = pagesDone;
    opts.onProgress?.({ phase: 'contacts', pagesDone, pagesTotal });
    // The directory: HQ's contacts are known up to the newest listed (a run from the start that
    // listed none: HQ has none). A resumed run that listed nothing new leaves it as it was.
    const before = await loadDirectory(ctx.store.db, accountId, opts.remoteAccountId);
    const watermark =
      watermarkAfter(before?.watermark ?? null, newest) ??
      (startOffset === 0 && listed === 0 ? new Date(0).toISOString() : null);
    if (watermark !== null)
      await ctx.store.write((trx) =>
        saveDirectory(trx, accountId, opts.remoteAccountId, watermark, ctx.now()),
      );
    return await finish('done', null);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return finish('failed', message);
  }
}

async function latestPullById(db: Db, id: string): Promise<PullRun | null> {
  const r = await db.selectFrom('syncPullRuns').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toRun(r) : null;
}
