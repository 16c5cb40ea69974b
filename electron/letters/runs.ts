/**
 * Print runs: a run records exactly the gifts it covers (letter_run_gifts), renders its
 * letters into `letters/<runId>.pdf` in the data folder (and one file per donor in
 * `letters/<runId>/` on request) on a worker thread, counting `rendered` as it goes, and can
 * then be marked sent: exactly its gifts get thankYouSent and the date (markThanked), once.
 */
import { centsToDollars } from '#shared/money.ts';
import { newId } from '#shared/ids.ts';
import {
  LetterChoice,
  type LetterRun,
  type LetterRunCreate,
  type MarkSentResult,
} from '#shared/schemas/letters.ts';
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import type { Selectable } from 'kysely';
import type { LetterRunsTable } from '../db/schema/letters.ts';
import { THIS_PROCESS, getAccount, ownerMayBeAlive, requireAccount } from '../domain/accounts/index.ts';
import { markThanked } from '../domain/donations/index.ts';
import { DomainError, type DomainContext, notFound } from '../domain/index.ts';
import { mergeLetter } from './merge.ts';
import type { LetterPage } from './render/pages.ts';
import { renderPdf, renderPdfBytes, warmLetterRenderer } from './render/thread.ts';
import { type LetterSet, selectLetters } from './select.ts';
import { loadLetterSettings, requireFitWording, templateOf } from './settings.ts';

const CHUNK = 500;
/** How often the progress count is written while a run renders. */
const PROGRESS_MS = 250;

/** The run's PDF, relative to the data folder. */
export function runFileName(runId: string): string {
  return path.join('letters', `${runId}.pdf`);
}
/** The folder of a run's per-donor files, relative to the data folder. */
export function runPerDonorDir(runId: string): string {
  return path.join('letters', runId);
}

type RunRow = Selectable<LetterRunsTable>;

function runOf(r: RunRow): LetterRun {
  const parsed = LetterChoice.safeParse(JSON.parse(r.filters));
  return {
    id: r.id,
    kind: r.kind,
    choice: parsed.success ? parsed.data : { kind: r.kind },
    status: r.status,
    documents: Number(r.documents),
    rendered: Number(r.rendered),
    gifts: Number(r.gifts),
    total: centsToDollars(Number(r.totalCents)),
    pdfUrl: r.file ? `/api/v1/letters/runs/${r.id}/pdf` : null,
    error: r.error,
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

/** The run's PDF as an absolute path, or null while there is none (rendering, failed, or no letters). */
export async function letterRunPdfPath(
  ctx: DomainContext,
  dataDir: string,
  accountId: string,
  runId: string,
): Promise<string | null> {
  const row = await runRow(ctx, accountId, runId);
  return row.file ? path.join(dataDir, row.file) : null;
}

/** The event loop gets a turn at least this often while letters are merged. */
const MERGE_SLICE_MS = 8;

/** The wording a set's letters are merged with: the account's, its organisation named. */
async function mergeContext(ctx: DomainContext, accountId: string, set: LetterSet) {
  const loaded = await loadLetterSettings(ctx.store.db, accountId);
  // Until Settings name the organisation, its letters use the account's name.
  const settings = loaded.organizationName?.trim()
    ? loaded
    : { ...loaded, organizationName: (await getAccount(ctx, accountId))?.name ?? null };
  return { template: templateOf(settings, set.kind), merge: { settings, set, today: ctx.now() } };
}

/**
 * The letters of a set, merged with the account's wording, in chunks of a few milliseconds'
 * work: the event loop gets a turn between chunks, and the renderer draws one chunk while the
 * next is merged.
 */
async function* letterPageChunks(
  ctx: DomainContext,
  accountId: string,
  set: LetterSet,
): AsyncGenerator<LetterPage[]> {
  const { template, merge } = await mergeContext(ctx, accountId, set);
  let chunk: LetterPage[] = [];
  let since = performance.now();
  for (let i = 0; i < set.documents.length; i++) {
    chunk.push(mergeLetter(template, set.documents[i]!, merge, i));
    if (performance.now() - since > MERGE_SLICE_MS) {
      yield chunk;
      chunk = [];
      await turn();
      since = performance.now();
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The letters of a set, merged (a preview's few). */
async function letterPages(ctx: DomainContext, accountId: string, set: LetterSet): Promise<LetterPage[]> {
  const pages: LetterPage[] = [];
  for await (const chunk of letterPageChunks(ctx, accountId, set)) pages.push(...chunk);
  return pages;
}

/** The runs rendering in this process, by id: what waitForRun waits on. */
const active = new Map<string, Promise<void>>();
/** Runs this process is recording (their row may be written, rendering not yet begun). */
const starting = new Set<string>();

async function insertRun(ctx: DomainContext, accountId: string, id: string, set: LetterSet): Promise<void> {
  const rows = set.documents.flatMap((d) =>
    d.gifts.map((g) => ({ runId: id, donationId: g.id, contactId: d.donor.id })),
  );
  const empty = set.documents.length === 0;
  const at = ctx.now();
  // The run's row with its first gifts, then the rest 500 to a transaction, so a run of
  // thousands holds the database for a few milliseconds at a time. Until rendering is done
  // the run cannot be marked sent, so a run cut short here never marks anything.
  await ctx.store.write(async (trx) => {
    await trx
      .insertInto('letterRuns')
      .values({
        id,
        accountId,
        kind: set.kind,
        filters: JSON.stringify(set.choice),
        status: empty ? 'done' : 'rendering',
        documents: set.documents.length,
        rendered: 0,
        gifts: set.gifts,
        totalCents: set.totalCents,
        createdAt: at,
        finishedAt: empty ? at : null,
        owner: THIS_PROCESS,
      })
      .execute();
    if (rows.length > 0) await trx.insertInto('letterRunGifts').values(rows.slice(0, CHUNK)).execute();
  });
  for (let i = CHUNK; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await ctx.store.write((trx) => trx.insertInto('letterRunGifts').values(chunk).execute());
  }
}

async function render(
  ctx: DomainContext,
  dataDir: string,
  accountId: string,
  id: string,
  set: LetterSet,
  input: LetterRunCreate,
) {
  let lastWrite = 0;
  let pending: Promise<unknown> = Promise.resolve();
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
    const file = runFileName(id);
    await renderPdf(letterPageChunks(ctx, accountId, set), path.join(dataDir, file), progress, {
      perDonorDir: input.perDonor ? path.join(dataDir, runPerDonorDir(id)) : null,
      title: `${set.kind} letters`,
    });
    await pending.catch(() => undefined);
    await ctx.store.write((trx) =>
      trx
        .updateTable('letterRuns')
        .set({ status: 'done', rendered: set.documents.length, file, finishedAt: ctx.now() })
        .where('id', '=', id)
        .execute(),
    );
    if (input.markSent) await markRunSent(ctx, accountId, id);
  } catch (err) {
    await pending.catch(() => undefined);
    const error = `The letters could not be printed: ${err instanceof Error ? err.message : String(err)}`;
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
 * once, with no PDF.
 */
export async function startLetterRun(
  ctx: DomainContext,
  dataDir: string,
  input: LetterRunCreate,
): Promise<LetterRun> {
  const { accountId, perDonor: _p, markSent: _m, confirmWording, ...choice } = input;
  await requireAccount(ctx, accountId);
  requireFitWording(await loadLetterSettings(ctx.store.db, accountId), confirmWording);
  // The renderer loads while the gifts are selected and recorded (thread.ts).
  warmLetterRenderer();
  const set = await selectLetters(ctx.store.db, accountId, choice, ctx.now());
  const id = newId('letterRun');
  starting.add(id);
  try {
    await insertRun(ctx, accountId, id, set);
    if (set.documents.length > 0) {
      const running = render(ctx, dataDir, accountId, id, set, input).finally(() => active.delete(id));
      active.set(id, running);
    }
  } finally {
    starting.delete(id);
  }
  return getLetterRun(ctx, accountId, id);
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

/** The first letter of a choice as PDF bytes, rendered on a worker thread; 404 when nothing matches. */
export async function previewFirstLetter(
  ctx: DomainContext,
  accountId: string,
  choice: LetterChoice,
): Promise<{ pdf: Buffer; documents: number; gifts: number }> {
  await requireAccount(ctx, accountId);
  const set = await selectLetters(ctx.store.db, accountId, choice, ctx.now());
  if (set.documents.length === 0)
    throw new DomainError(
      'not_found',
      'no_letters',
      'No completed gifts match this choice: there is no letter to show',
    );
  const first = await letterPages(ctx, accountId, { ...set, documents: set.documents.slice(0, 1) });
  return {
    pdf: await renderPdfBytes(first, 'Letter preview'),
    documents: set.documents.length,
    gifts: set.gifts,
  };
}
