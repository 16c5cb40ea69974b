/**
 * Pull: HQ's directory comes down so that gift entry at an event finds the donors HQ already
 * has instead of creating duplicates.
 *
 * - Reference data first (reference.ts): campaigns, committees, donation accounts where HQ
 *   lists them, custom fields matched by name.
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
 */
import { newId } from '#shared/ids.ts';
import type { DomainContext } from '../domain/context.ts';
import { DomainError } from '../domain/errors.ts';
import {
  insertPulledContact,
  pulledContactFields,
  type PulledContactFields,
  refreshPulledContact,
} from '../domain/pulled.ts';
import type { SyncPullRunsTable } from '../db/schema.ts';
import type { Db } from '../db/store.ts';
import type { Clock } from './clock.ts';
import { loadDirectory, noteHqContacts, saveDirectory, watermarkAfter } from './email-match.ts';
import { pullReferenceData } from './reference.ts';
import { type RemoteReader, getJson, remoteMessage } from './remote-read.ts';
import { linkRemote, unconfirmedContactCreates } from './state.ts';

export const PULL_PAGE_SIZE = 100;
/** A running pull without a heartbeat for this long is taken to have died. */
export const PULL_STALE_MS = 60_000;

export interface PullCounts {
  /** Contacts added to the local directory. */
  created: number;
  /** Linked contacts brought up to HQ's values. */
  updated: number;
  /** Contacts HQ has that matched an unlinked local one: linked, not copied. */
  linked: number;
  /** Linked contacts with local changes not yet pushed: those fields were kept. */
  kept: number;
  unchanged: number;
  /** HQ contacts that look like a local contact whose create is still to be confirmed. */
  deferred: number;
  /** HQ contacts whose local copy was deleted here (the delete goes to HQ). */
  deletedHere: number;
  /** HQ list items that could not be stored (reason in the notes). */
  rejected: number;
  /** Reference records added, linked or renamed. */
  reference: number;
}

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

const zeroCounts = (): PullCounts => ({
  created: 0,
  updated: 0,
  linked: 0,
  kept: 0,
  unchanged: 0,
  deferred: 0,
  deletedHere: 0,
  rejected: 0,
  reference: 0,
});
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

interface RemoteContact {
  remoteId: string;
  fields: PulledContactFields;
  createdAt: string | null;
}

/**
 * The wire fields of each contact that the user changed here and HQ has not received yet
 * (push = 1, not synced): 'all' for a create, delete or whole-record change.
 */
export async function unpushedContactFields(
  db: Db,
  accountId: string,
  contactIds: readonly string[],
): Promise<Map<string, Set<string> | 'all'>> {
  const out = new Map<string, Set<string> | 'all'>();
  for (let i = 0; i < contactIds.length; i += 200) {
    const part = contactIds.slice(i, i + 200);
    const rows = await db
      .selectFrom('changeLog')
      .select(['entityId', 'op', 'fields'])
      .where('accountId', '=', accountId)
      .where('entityType', '=', 'contact')
      .where('entityId', 'in', part)
      .where('push', '=', 1)
      .where('syncedAt', 'is', null)
      .execute();
    for (const r of rows) {
      const cur = out.get(r.entityId);
      if (cur === 'all') continue;
      if (r.op !== 'update' || r.fields === null) {
        out.set(r.entityId, 'all');
        continue;
      }
      const set = cur ?? new Set<string>();
      for (const f of JSON.parse(r.fields) as string[]) set.add(f);
      out.set(r.entityId, set);
    }
  }
  return out;
}

/** Local contacts made here whose create HQ has not confirmed (no link yet, create not synced). */
async function unconfirmedCreates(
  db: Db,
  accountId: string,
): Promise<Array<{ id: string; firstName: string; lastName: string; email: string | null }>> {
  // Creates not sent yet: the engine will send (and email-match) the contact as it is now.
  const unsent = await db
    .selectFrom('changeLog as l')
    .innerJoin('contacts as c', 'c.id', 'l.entityId')
    .select(['c.id', 'c.firstName', 'c.lastName', 'c.email'])
    .where('l.accountId', '=', accountId)
    .where('l.push', '=', 1)
    .where('l.syncedAt', 'is', null)
    .where('l.entityType', '=', 'contact')
    .where('l.op', '=', 'create')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('syncLinks as s')
            .select('s.localId')
            .where('s.entityType', '=', 'contact')
            .whereRef('s.localId', '=', 'c.id'),
        ),
      ),
    )
    .execute();
  // Creates sent whose outcome is not known: HQ may hold what the attempt SENT, whatever the
  // contact became here since (renamed, given another email, deleted). That record is the
  // engine's to find by its tag; pulled as a new local contact it would be a ghost donor.
  return [...unsent, ...(await unconfirmedContactCreates(db, accountId))];
}

/** Unlinked local contacts whose displayed email is one of `emails` (case-insensitive). */
async function unlinkedByEmail(
  db: Db,
  engine: 'sqlite' | 'postgres',
  accountId: string,
  emails: readonly string[],
) {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return [];
  let q = db
    .selectFrom('contacts as c')
    .select(['c.id', 'c.firstName', 'c.lastName', 'c.email'])
    .where('c.accountId', '=', accountId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('syncLinks as s')
            .select('s.localId')
            .where('s.entityType', '=', 'contact')
            .whereRef('s.localId', '=', 'c.id'),
        ),
      ),
    );
  // SQLite's email column compares case-insensitively (and uses its index); PostgreSQL's does not.
  q =
    engine === 'sqlite'
      ? q.where('c.email', 'in', wanted)
      : q.where((eb) => eb(eb.fn('lower', ['c.email']), 'in', wanted));
  return q.orderBy('c.createdAt').execute();
}

const lower = (s: string | null) => (s ?? '').toLowerCase();

/** Writes one page of HQ's contacts (the caller's transaction). */
async function applyContactPage(
  trx: Db,
  ctx: DomainContext,
  accountId: string,
  items: readonly unknown[],
  emailMatch: boolean,
  counts: PullCounts,
  note: (n: string) => void,
): Promise<void> {
  const at = ctx.now();
  const contacts: RemoteContact[] = [];
  const seen = new Set<string>();
  for (const raw of items) {
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const remoteId = typeof o.id === 'string' ? o.id : typeof o.id === 'number' ? String(o.id) : null;
    if (!remoteId) {
      counts.rejected++;
      note('HQ listed a contact without an id; it was skipped');
      continue;
    }
    if (seen.has(remoteId)) continue;
    seen.add(remoteId);
    const f = pulledContactFields(o);
    if ('problem' in f) {
      counts.rejected++;
      note(`HQ contact ${remoteId} was not pulled: ${f.problem}`);
      continue;
    }
    contacts.push({
      remoteId,
      fields: f,
      createdAt:
        typeof o.createdAt === 'string' && !Number.isNaN(Date.parse(o.createdAt)) ? o.createdAt : null,
    });
  }
  if (contacts.length === 0) return;

  const links = await trx
    .selectFrom('syncLinks')
    .select(['localId', 'remoteId'])
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where(
      'remoteId',
      'in',
      contacts.map((c) => c.remoteId),
    )
    .execute();
  const localOf = new Map(links.map((l) => [l.remoteId, l.localId]));
  const pending = await unpushedContactFields(
    trx,
    accountId,
    links.map((l) => l.localId),
  );

  const unlinked = contacts.filter((c) => !localOf.has(c.remoteId));
  const waiting = unlinked.length > 0 ? await unconfirmedCreates(trx, accountId) : [];
  const byEmail = await unlinkedByEmail(
    trx,
    ctx.store.engine,
    accountId,
    unlinked.flatMap((c) => (c.fields.email ? [c.fields.email] : [])),
  );
  const waitingIds = new Set(waiting.map((w) => w.id));
  const takenHere = new Set<string>();
  const deferred: Array<{ id: string; email: string | null; createdAt: string }> = [];

  for (const c of contacts) {
    const f = c.fields;
    let localId = localOf.get(c.remoteId);
    if (localId === undefined) {
      const sameNames = (x: { firstName: string; lastName: string }) =>
        lower(x.firstName) === lower(f.firstName) && lower(x.lastName) === lower(f.lastName);
      const sameEmail = (x: { email: string | null }) =>
        f.email !== null && lower(x.email) === lower(f.email);
      // The engine's to link: a contact made here, not confirmed at HQ yet, that this one may be.
      if (
        waiting.some(
          (w) =>
            (sameNames(w) && (sameEmail(w) || (w.email === null && f.email === null))) ||
            (emailMatch && sameEmail(w)),
        )
      ) {
        counts.deferred++;
        deferred.push({ id: c.remoteId, email: f.email, createdAt: c.createdAt ?? at });
        continue;
      }
      const match = byEmail.find(
        (x) => !waitingIds.has(x.id) && !takenHere.has(x.id) && sameEmail(x) && (emailMatch || sameNames(x)),
      );
      if (match) {
        localId = match.id;
        takenHere.add(match.id);
        await linkRemote(trx, {
          accountId,
          entityType: 'contact',
          localId,
          remoteId: c.remoteId,
          source: 'pulled',
          at,
        });
        counts.linked++;
        const r = await refreshPulledContact(
          trx,
          accountId,
          localId,
          f,
          (await unpushedContactFields(trx, accountId, [localId])).get(localId) ?? new Set(),
          at,
        );
        if (r.kind === 'kept') counts.kept++;
        continue;
      }
      const id = await insertPulledContact(trx, accountId, f, at);
      await linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: id,
        remoteId: c.remoteId,
        source: 'pulled',
        at,
      });
      counts.created++;
      continue;
    }
    const r = await refreshPulledContact(trx, accountId, localId, f, pending.get(localId) ?? new Set(), at);
    switch (r.kind) {
      case 'missing':
        counts.deletedHere++;
        break;
      case 'unchanged':
        counts.unchanged++;
        break;
      case 'kept':
        counts.kept++;
        break;
      case 'updated':
        if (pending.has(localId)) counts.kept++;
        else counts.updated++;
        break;
    }
  }
  // Left for the engine: the email match's directory lists them (email-match.ts).
  await noteHqContacts(trx, accountId, deferred);
}
