/**
 * Print runs: a run records exactly the gifts it covers (letter_run_gifts) and their donors
 * (letter_run_donors, read back a page at a time in letter order), renders its
 * letters into `letters/<runId>.pdf` in the data folder, or in parts (parts.ts), and one file
 * per donor in `letters/<runId>/` on request, on a worker thread, counting `rendered` as it
 * goes, and can then be marked sent: exactly its gifts get thankYouSent and the date
 * (markThanked), once.
 */
import { centsToDollars } from '#shared/money.ts';
import { newId } from '#shared/ids.ts';
import {
  LetterChoice,
  type LetterRun,
  type LetterRunCreate,
  type MarkSentResult,
} from '#shared/schemas/letters.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { Selectable } from 'kysely';
import type { LetterRunsTable } from '../db/schema/letters.ts';
import { THIS_PROCESS, ownerMayBeAlive, requireAccount } from '../domain/accounts/index.ts';
import { markThanked } from '../domain/donations/index.ts';
import { DomainError, type DomainContext, invalidField, notFound } from '../domain/index.ts';
import {
  type StoredRunPart,
  partFile,
  partsOf,
  renderParts,
  runFileName,
  runPartFileName,
  runPerDonorDir,
  storedParts,
} from './parts.ts';
import { countChoice, recordRunGifts } from './paged.ts';
import { runLetterPages } from './pages-thread.ts';
import { warmLetterRenderer } from './render/thread.ts';
import { inTurn, isQueued, letterRunLimits, runErrorText } from './run-queue.ts';
import { checkReferences, rangeOf, setHead } from './select.ts';
import { type SetHead, insertRun, runStartedWith } from './run-record.ts';
import { loadLetterSettings, mergeContext, requireFitWording } from './settings.ts';

const CHUNK = 500;
/** How often the progress count is written while a run renders. */
const PROGRESS_MS = 250;

export { runFileName, runPartFileName, runPerDonorDir };

type RunRow = Selectable<LetterRunsTable>;

function runOf(r: RunRow): LetterRun {
  const parsed = LetterChoice.safeParse(JSON.parse(r.filters));
  const parts = partsOf(r);
  return {
    id: r.id,
    kind: r.kind,
    choice: parsed.success ? parsed.data : { kind: r.kind },
    status: r.status,
    documents: Number(r.documents),
    rendered: Number(r.rendered),
    gifts: Number(r.gifts),
    total: centsToDollars(Number(r.totalCents)),
    // A run in parts keeps the one-PDF route, which answers 409 `run_in_parts`: a script written
    // for one PDF stops there, rather than printing the first part and taking the run as done.
    pdfUrl: r.file ? `/api/v1/letters/runs/${r.id}/pdf` : null,
    parts,
    error: r.error,
    queued: isQueued(r.id),
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    markedSentAt: r.markedSentAt,
  };
}

async function runRow(ctx: DomainContext, accountId: string, runId: string): Promise<RunRow> {
  const row = await ctx.store.db
    .selectFrom('letterRuns')
    .selectAll()
    .where('accountId', '=', accountId)
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!row) throw notFound('letter run', 'id', runId);
  return row;
}

/** One run of the account; 404 for another account's or no run. */
export async function getLetterRun(ctx: DomainContext, accountId: string, runId: string): Promise<LetterRun> {
  return runOf(await runRow(ctx, accountId, runId));
}

/** The account's runs, newest first. */
export async function listLetterRuns(
  ctx: DomainContext,
  accountId: string,
  limit = 50,
): Promise<LetterRun[]> {
  const rows = await ctx.store.db
    .selectFrom('letterRuns')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(runOf);
}

/**
 * The run's PDF as an absolute path, or null while there is none (rendering, failed, or no
 * letters): without `part`, its one PDF (409 `run_in_parts` for a run printed in several);
 * with it, that part (from 1; 404 `no_such_part` beyond the last).
 */
export async function letterRunPdfPath(
  ctx: DomainContext,
  dataDir: string,
  accountId: string,
  runId: string,
  part?: number,
): Promise<string | null> {
  const file = partFile(storedParts(await runRow(ctx, accountId, runId)), part);
  return file === null ? null : path.join(dataDir, file);
}

/** The runs rendering in this process, by id: what waitForRun waits on. */
const active = new Map<string, Promise<void>>();
/** Runs this process is recording (their row may be written, rendering not yet begun). */
const starting = new Set<string>();

async function render(
  ctx: DomainContext,
  dataDir: string,
  accountId: string,
  id: string,
  head: SetHead,
  documents: number,
  input: LetterRunCreate,
) {
  let lastWrite = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const written: StoredRunPart[] = [];
  const progress = (rendered: number) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_MS) return;
    lastWrite = now;
    pending = pending.then(() =>
      ctx.store.write((trx) =>
        trx.updateTable('letterRuns').set({ rendered }).where('id', '=', id).execute(),
      ),
    );
  };
  try {
    const merging = await mergeContext(ctx, accountId, head);
    await renderParts(runLetterPages(ctx.store, accountId, id, merging), documents, written, {
      dataDir,
      runId: id,
      title: `${head.kind} letters`,
      perDonor: input.perDonor === true,
      progress,
    });
    await pending.catch(() => undefined);
    await ctx.store.write((trx) =>
      trx
        .updateTable('letterRuns')
        .set({
          status: 'done',
          rendered: written[written.length - 1]!.lastLetter,
          file: written[0]!.file,
          parts: JSON.stringify(written),
          finishedAt: ctx.now(),
        })
        .where('id', '=', id)
        .execute(),
    );
    if (input.markSent) await markRunSent(ctx, accountId, id);
  } catch (err) {
    await pending.catch(() => undefined);
    // A run that failed offers no part: those already written go.
    for (const p of written) fs.rmSync(path.join(dataDir, p.file), { force: true });
    const error = runErrorText(err, dataDir);
    await ctx.store
      .write((trx) =>
        trx
          .updateTable('letterRuns')
          .set({ status: 'failed', error, finishedAt: ctx.now() })
          .where('id', '=', id)
          .execute(),
      )
      .catch(() => undefined);
  }
}

/**
 * Starts a print run: selects the gifts (a DomainError naming the field for a bad choice),
 * records the run and its gifts, and answers it with status 'rendering' while the letters
 * render on a worker thread. A choice that finds no gifts is a run of 0 documents, done at
 * once, with no PDF. With an entry key the account started a run with already, that run is
 * the answer (`created: false`) and nothing is started (startLetterRunOnce).
 */
export async function startLetterRun(
  ctx: DomainContext,
  dataDir: string,
  input: LetterRunCreate,
): Promise<LetterRun> {
  return (await startLetterRunOnce(ctx, dataDir, input)).run;
}

export async function startLetterRunOnce(
  ctx: DomainContext,
  dataDir: string,
  input: LetterRunCreate,
): Promise<{ run: LetterRun; created: boolean }> {
  const { accountId, perDonor, markSent: _m, confirmWording, entryKey, ...choice } = input;
  await requireAccount(ctx, accountId);
  // A try again of a start that went through answers its run before anything is checked again
  // (the wording or the gifts may have changed since); a race is settled where the run is written.
  const before = entryKey ? await runStartedWith(ctx.store.db, accountId, entryKey) : null;
  if (before !== null) return { run: await getLetterRun(ctx, accountId, before), created: false };
  requireFitWording(await loadLetterSettings(ctx.store.db, accountId), confirmWording);
  const { range, year } = rangeOf(choice, ctx.now());
  await checkReferences(ctx.store.db, accountId, choice);
  const counts = await countChoice(ctx.store.db, accountId, choice, range);
  const limit = letterRunLimits.perDonorFiles;
  if (perDonor && counts.documents > limit)
    throw invalidField(
      'perDonor',
      `writes one file per donor, at most ${limit.toLocaleString('en-US')} to a run: this choice has ` +
        `${counts.documents.toLocaleString('en-US')} donors (narrow it, or print the one PDF without perDonor)`,
      'too_many_files',
    );
  // The renderer loads while the gifts are recorded (thread.ts).
  warmLetterRenderer();
  const head = setHead(choice, year);
  const id = newId('letterRun');
  starting.add(id);
  try {
    const recorded = await insertRun(
      ctx,
      accountId,
      id,
      head,
      counts,
      () => recordRunGifts(ctx, accountId, id, choice, range),
      entryKey ?? null,
    );
    if (recorded && 'held' in recorded)
      return { run: await getLetterRun(ctx, accountId, recorded.held), created: false };
    if (recorded) {
      const running = inTurn(id, () =>
        render(ctx, dataDir, accountId, id, head, recorded.documents, input),
      ).finally(() => active.delete(id));
      active.set(id, running);
    }
  } finally {
    starting.delete(id);
  }
  return { run: await getLetterRun(ctx, accountId, id), created: true };
}

/** True when no process renders the run any more: its owner is gone, unknown, or this process without it. */
function interrupted(run: { id: string; owner: string | null }): boolean {
  if (active.has(run.id) || starting.has(run.id)) return false;
  if (run.owner === null || run.owner === THIS_PROCESS) return true;
  return !ownerMayBeAlive(run.owner);
}

/**
 * Runs left 'rendering' by a GiftDesk that stopped while printing (kill -9, a crash, a power
 * cut: the process that rendered them is gone) are marked failed, with what to do; their
 * gifts were never marked. A run still printing in another live process on the same database
 * (the `giftdesk letters` command beside a server) is left alone. For a server's start, before
 * it takes requests. Answers how many.
 */
export async function failInterruptedRuns(ctx: DomainContext): Promise<number> {
  const open = await ctx.store.db
    .selectFrom('letterRuns')
    .select(['id', 'owner'])
    .where('status', '=', 'rendering')
    .execute();
  const stale = open.filter(interrupted).map((r) => r.id);
  if (stale.length === 0) return 0;
  const error =
    'GiftDesk stopped while this run was printing: start the run again (no gift was marked sent).';
  await ctx.store.write((trx) =>
    trx
      .updateTable('letterRuns')
      .set({ status: 'failed', error, finishedAt: ctx.now() })
      .where('id', 'in', stale)
      .where('status', '=', 'rendering')
      .execute(),
  );
  return stale.length;
}

/** Waits until the run has finished rendering here (and been marked, when asked), then answers it. */
export async function waitForRun(ctx: DomainContext, accountId: string, runId: string): Promise<LetterRun> {
  await active.get(runId);
  return getLetterRun(ctx, accountId, runId);
}

/**
 * Marks exactly the run's gifts thanked (thankYouSent, thankYouSentDate: now), page by page.
 * Again later it marks nothing new and keeps the first date: idempotent. 409 while the run
 * is not done.
 */
export async function markRunSent(
  ctx: DomainContext,
  accountId: string,
  runId: string,
): Promise<MarkSentResult> {
  const row = await runRow(ctx, accountId, runId);
  if (row.status !== 'done')
    throw new DomainError(
      'conflict',
      'run_not_done',
      `The run is ${row.status}: only a printed run can be marked sent`,
      [{ field: 'id', issue: `is ${row.status}` }],
    );
  const sentAt = row.markedSentAt ?? ctx.now();
  let marked = 0;
  let after = '';
  for (;;) {
    const page = await ctx.store.db
      .selectFrom('letterRunGifts')
      .select('donationId')
      .where('runId', '=', runId)
      .where('donationId', '>', after)
      .orderBy('donationId')
      .limit(CHUNK)
      .execute();
    if (page.length === 0) break;
    marked += await markThanked(
      ctx,
      accountId,
      page.map((p) => p.donationId),
      sentAt,
    );
    after = page[page.length - 1]!.donationId;
    if (page.length < CHUNK) break;
  }
  if (!row.markedSentAt)
    await ctx.store.write((trx) =>
      trx
        .updateTable('letterRuns')
        .set({ markedSentAt: sentAt })
        .where('id', '=', runId)
        .where('markedSentAt', 'is', null)
        .execute(),
    );
  return { id: runId, marked, markedSentAt: sentAt };
}
