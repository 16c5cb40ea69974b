/**
 * Reconciliation, batched: after unknown outcomes (timeout, reset, 5xx), the engine looks for
 * ALL of an account's unknown creates at HQ at once — one sweep per entity type — instead of
 * one search per record.
 *
 * - PUT and DELETE of unknown outcome are simply sent again (they set values / 404 is done):
 *   released as soon as their backoff is spent, without a read.
 * - A create can still land at HQ until its request's deadline has passed: it is looked for
 *   only once `attemptAt + deadline` (and its nextTryAt: its backoff, the request's own
 *   deadline from when it left, or the lease takeover's wait for a dead holder's requests)
 *   is behind it — "due". So that one sweep finds many records, a sweep waits until every
 *   unknown create is due, or at most `graceMs` after the first one was.
 * - Donations: HQ's gifts of the union of the due gifts' date windows (date ± 1 day, merged),
 *   paged; each gift matched by identity.ts matchDonation with its `taken` set (HQ gifts linked
 *   to other local gifts, or found for another gift in this sweep: twins).
 * - Contacts: HQ's contacts newest first back to the earliest attempt, on HQ's clock (the skew
 *   from the first page's `Date` header, minus SKEW_MARGIN_MS), skipping HQ ids that pushes or
 *   reconciliations linked to other local contacts; the fresh unlinked ones are read one by one
 *   (GET /contacts/:id, the list has no tags) to find the `gd:` tag — first those whose name
 *   is the name an attempt sent, the others only while a due record is still not found.
 *
 * Found → linked (source `found`) and its changes done; a gift lookalike without any GiftDesk
 * reference → parked for a person; absent (and due) → pending again, posted once. A read that
 * fails (after its retries) leaves every due record of that sweep unknown, backed off — never
 * "found" under a made-up id. A create found before it is due is linked at once (it landed).
 */
import type { ContactListItem } from '#shared/schemas/contacts.ts';
import type { DonationListItem } from '#shared/schemas/donations.ts';
import type { Db, Store } from '../db/store.ts';
import { backoffDelay } from './backoff.ts';
import type { RemoteResult } from './http-client.ts';
import { donationSearchWindow, matchDonation, REFERENCE_PREFIX } from './identity.ts';
import { releaseAttempt, settleAttempt } from './outbox.ts';
import type { RemoteConfig } from './remote-settings.ts';
import { type ItemRow, linkRemote, type PushEntity, updateItem } from './state.ts';

const PAGE = 100;
/**
 * How far before (HQ's clock) the earliest attempt the contact sweep looks: the `Date` header
 * is whole seconds (the estimate errs early by up to 1 s + a round trip, which is safe), and
 * HQ may run on more than one server whose clocks differ by seconds. 30 s of HQ's newest
 * contacts is a page or less at event rates (5 requests/s).
 */
export const SKEW_MARGIN_MS = 30_000;
/** Without a `Date` header from HQ, the lookback is a day before the earliest attempt (the old fixed rule). */
const NO_DATE_LOOKBACK_MS = 86_400_000;

export type Read =
  | { ok: true; body: unknown; headers?: Headers; receivedAt: number }
  | { ok: false; result: 'failed' | 'auth'; message: string; status?: number };

export interface ReadForReconcileDeps {
  /** One GET through the engine's client (its pacer, under the lease). */
  get: (path: string, query: Record<string, string | number>) => Promise<RemoteResult>;
  /** The remote: reads are in its HQ account; `lastError` is set when HQ refuses the key. */
  cfg: Pick<RemoteConfig, 'remoteAccountId' | 'lastError'>;
  clock: () => number;
  /** The retry's jitter. */
  random: () => number;
  /** True once the engine is stopping: no retry then. */
  stopped: () => boolean;
  /** Called for every request sent (the pass counts them). */
  counted: () => void;
}

/**
 * One GET for reconciliation, in the remote's HQ account. A passing failure (no answer, 429,
 * 5xx) is tried again twice after a short backoff (HQ's Retry-After when it gives one): reads
 * change nothing at HQ, and one failed page would otherwise cost the whole sweep. 401/403
 * end it as `auth`; any other answer as `failed`.
 */
export async function readForReconcile(
  d: ReadForReconcileDeps,
  path: string,
  query: Record<string, string | number>,
): Promise<Read> {
  for (let attempt = 0; ; attempt++) {
    d.counted();
    const r = await d.get(path, { accountId: d.cfg.remoteAccountId, ...query });
    if (r.outcome === 'applied')
      return { ok: true, body: r.body, ...(r.headers ? { headers: r.headers } : {}), receivedAt: d.clock() };
    const message = r.error?.message ?? r.networkError?.message ?? `HTTP ${r.status ?? 'no answer'}`;
    if (r.status === 401 || r.status === 403) {
      d.cfg.lastError = `HQ refused the API key (${r.status})`;
      return { ok: false, result: 'auth', message, status: r.status };
    }
    const passing = r.status === undefined || r.status === 429 || r.status >= 500;
    if (!passing || attempt >= 2 || d.stopped())
      return {
        ok: false,
        result: 'failed',
        message,
        ...(r.status !== undefined ? { status: r.status } : {}),
      };
    const wait = r.retryAfterMs ?? backoffDelay(attempt, { baseMs: 200, capMs: 2000, random: d.random });
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

export interface ReconcileDeps {
  store: Store;
  accountId: string;
  now: () => number;
  /** One GET through the engine's client (pacer, lease); passing failures retried by the caller. */
  get: (path: string, query: Record<string, string | number>) => Promise<Read>;
  /** Backs a record off (a failed read). */
  fail: (e: { entityType: PushEntity; entityId: string }, why: string) => Promise<void>;
  /** The request deadline: a create is not looked for before attemptAt + this. */
  deadlineMs: number;
  /** How long a due create waits for the others to become due, so one sweep finds them all. */
  graceMs: number;
  progress: (n: number) => void;
}

export interface ReconcileResult {
  result: 'ok' | 'failed' | 'auth' | 'waiting';
  /** Records found at HQ (linked) or found absent (pending again). */
  resolved: number;
  parked: number;
}

interface Create {
  item: ItemRow;
  due: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function reconcileUnknown(d: ReconcileDeps): Promise<ReconcileResult> {
  const { store } = d;
  const now = d.now();
  const at = iso(now);
  const out: ReconcileResult = { result: 'ok', resolved: 0, parked: 0 };
  const rows = (await store.db
    .selectFrom('syncItems')
    .selectAll()
    .where('accountId', '=', d.accountId)
    .where('state', 'in', ['unknown', 'in_flight'])
    .execute()) as ItemRow[];
  const backoffSpent = (r: ItemRow) => !r.nextTryAt || Date.parse(r.nextTryAt) <= now;

  const release = async (trx: Db, item: ItemRow) => {
    if (item.attemptId) await releaseAttempt(trx, item.attemptId);
    // Its backoff is spent: a stale nextTryAt must not mask the next item's (nextRetryAt).
    await updateItem(trx, item.entityType as PushEntity, item.entityId, {
      state: 'idle',
      attemptId: null,
      attemptBody: null,
      nextTryAt: null,
      updatedAt: at,
    });
    out.resolved++;
  };

  // PUT / DELETE (and an attempt without a body): sent again once their backoff is spent.
  const resend = rows.filter((r) => (r.op !== 'create' || !r.attemptId || !r.attemptBody) && backoffSpent(r));
  if (resend.length > 0)
    await store.write(async (trx) => {
      for (const r of resend) await release(trx, r);
    });

  const creates: Create[] = rows
    .filter((r) => r.op === 'create' && r.attemptId && r.attemptBody)
    .map((item) => ({
      item,
      due: backoffSpent(item) && Date.parse(item.attemptAt ?? at) + d.deadlineMs <= now,
    }));
  const due = creates.filter((c) => c.due);
  if (due.length === 0) return creates.length > 0 ? { ...out, result: 'waiting' } : out;
  if (creates.length > due.length) {
    // Wait for the others (one sweep for all), but not for ever: at most graceMs after the first was due.
    const firstDue = Math.min(
      ...due.map((c) =>
        Math.max(Date.parse(c.item.nextTryAt ?? at), Date.parse(c.item.attemptAt ?? at) + d.deadlineMs),
      ),
    );
    if (now < firstDue + d.graceMs) return { ...out, result: 'waiting' };
  }

  for (const type of ['contact', 'donation'] as const) {
    const all = creates.filter((c) => c.item.entityType === type);
    if (!all.some((c) => c.due)) continue;
    const r =
      type === 'donation' ? await sweepDonations(d, all, at, out) : await sweepContacts(d, all, at, out);
    if (r.kind === 'auth') return { ...out, result: 'auth' };
    if (r.kind === 'failed') {
      for (const c of all)
        if (c.due)
          await d.fail({ entityType: type, entityId: c.item.entityId }, `looking for it at HQ: ${r.message}`);
      out.result = 'failed';
    }
  }
  return out;
}

type SweepEnd = { kind: 'ok' } | { kind: 'failed' | 'auth'; message: string };
const OK: SweepEnd = { kind: 'ok' };

/** Records a find: linked, the attempt's changes done (optionally parked with a note). */
async function linkFound(
  d: ReconcileDeps,
  trx: Db,
  item: ItemRow,
  remoteId: string,
  at: string,
  note: { code: string; reason: string } | null,
): Promise<number> {
  await linkRemote(trx, {
    accountId: d.accountId,
    entityType: item.entityType as PushEntity,
    localId: item.entityId,
    remoteId,
    source: 'found',
    at,
  });
  const settled = await settleAttempt(trx, d.accountId, item.attemptId!, at);
  await updateItem(trx, item.entityType as PushEntity, item.entityId, {
    state: note ? 'attention' : 'idle',
    attemptId: null,
    attemptBody: null,
    failures: 0,
    nextTryAt: null,
    lastError: null,
    attentionCode: note?.code ?? null,
    attentionReason: note?.reason ?? null,
    attentionAt: note ? at : null,
    updatedAt: at,
  });
  return settled;
}

async function releaseAbsent(trx: Db, item: ItemRow, at: string): Promise<void> {
  await releaseAttempt(trx, item.attemptId!);
  await updateItem(trx, item.entityType as PushEntity, item.entityId, {
    state: 'idle',
    attemptId: null,
    attemptBody: null,
    nextTryAt: null,
    updatedAt: at,
  });
}

/** Local records (other than none) linked to these HQ ids: remote id → local id. */
async function linksOf(
  db: Db,
  accountId: string,
  entityType: PushEntity,
  remoteIds: readonly string[],
  sources?: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < remoteIds.length; i += 500) {
    let q = db
      .selectFrom('syncLinks')
      .select(['remoteId', 'localId'])
      .where('accountId', '=', accountId)
      .where('entityType', '=', entityType)
      .where('remoteId', 'in', remoteIds.slice(i, i + 500));
    if (sources) q = q.where('source', 'in', [...sources]);
    for (const r of await q.execute()) out.set(r.remoteId, r.localId);
  }
  return out;
}

/** Date windows merged where they overlap or touch (date-only, inclusive). */
export function mergeWindows(
  windows: ReadonlyArray<{ startDate: string; endDate: string }>,
): Array<{ startDate: string; endDate: string }> {
  const sorted = [...windows].sort((a, b) => a.startDate.localeCompare(b.startDate));
  const out: Array<{ startDate: string; endDate: string }> = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    const dayAfterLast = last ? iso(Date.parse(`${last.endDate}T00:00:00Z`) + 86_400_000).slice(0, 10) : null;
    if (last && w.startDate <= dayAfterLast!) {
      if (w.endDate > last.endDate) last.endDate = w.endDate;
    } else out.push({ ...w });
  }
  return out;
}

async function readAll<T>(
  d: ReconcileDeps,
  path: string,
  query: Record<string, string | number>,
  key: 'donations' | 'contacts',
  stop?: (page: T[], first: Read & { ok: true }) => boolean,
): Promise<{ ok: true; items: T[] } | { ok: false; end: SweepEnd }> {
  const items: T[] = [];
  let first: (Read & { ok: true }) | null = null;
  for (let offset = 0; ; offset += PAGE) {
    const r = await d.get(path, { ...query, limit: PAGE, offset });
    if (!r.ok) return { ok: false, end: { kind: r.result, message: r.message } };
    first ??= r;
    const b = r.body as Record<string, unknown> | null;
    const page = (Array.isArray(b?.[key]) ? b[key] : Array.isArray(b?.data) ? b.data : []) as T[];
    items.push(...page);
    if (page.length < PAGE || stop?.(page, first)) break;
  }
  return { ok: true, items };
}

async function sweepDonations(
  d: ReconcileDeps,
  all: Create[],
  at: string,
  out: ReconcileResult,
): Promise<SweepEnd> {
  type Sent = {
    localId: string;
    body: {
      contactId: string;
      donationAmount: number;
      donationDate: string;
      paymentMethod: string;
      campaignId?: string;
    };
  };
  const sentOf = (c: Create) => JSON.parse(c.item.attemptBody!) as Sent;
  const items = new Map<string, DonationListItem>();
  for (const w of mergeWindows(
    all.filter((c) => c.due).map((c) => donationSearchWindow(sentOf(c).body.donationDate)),
  )) {
    const r = await readAll<DonationListItem>(
      d,
      '/donations',
      { startDate: w.startDate, endDate: w.endDate },
      'donations',
    );
    if (!r.ok) return r.end;
    for (const x of r.items) items.set(x.id, x);
  }
  const list = [...items.values()];
  const links = await linksOf(
    d.store.db,
    d.accountId,
    'donation',
    list.map((x) => x.id),
  );
  const matchOf = (c: Create, foundForOthers: ReadonlySet<string>) => {
    const b = sentOf(c).body;
    const taken = new Set(foundForOthers);
    for (const [remoteId, localId] of links) if (localId !== c.item.entityId) taken.add(remoteId);
    return matchDonation(
      list,
      {
        localId: c.item.entityId,
        contactId: b.contactId,
        donationAmount: b.donationAmount,
        donationDate: b.donationDate,
        paymentMethod: b.paymentMethod,
        campaignId: b.campaignId ?? null,
      },
      taken,
    );
  };
  // Found by reference first (exact, for due and not-yet-due alike), then lookalikes for the
  // due ones with every find of this sweep taken: twins never take each other's HQ gift.
  const found = new Map<string, { remoteId: string; duplicates: string[] }>();
  for (const c of all) {
    const m = matchOf(c, new Set());
    if (m.kind === 'found') found.set(c.item.entityId, m);
  }
  const foundIds = new Set([...found.values()].map((f) => f.remoteId));
  let settled = 0;
  await d.store.write(async (trx) => {
    for (const c of all) {
      const f = found.get(c.item.entityId);
      if (f) {
        const note =
          f.duplicates.length > 0
            ? {
                code: 'duplicate_at_hq',
                reason: `HQ has this gift ${f.duplicates.length + 1} times (${[f.remoteId, ...f.duplicates].join(', ')}). Delete the extra copies in HQ's web application, then discard this item.`,
              }
            : null;
        settled += await linkFound(d, trx, c.item, f.remoteId, at, note);
        if (note) out.parked++;
        else out.resolved++;
        continue;
      }
      if (!c.due) continue;
      const m = matchOf(c, foundIds);
      if (m.kind === 'lookalike') {
        await releaseAttempt(trx, c.item.attemptId!);
        await updateItem(trx, 'donation', c.item.entityId, {
          state: 'attention',
          attemptId: null,
          attemptBody: null,
          attentionCode: 'possible_duplicate',
          attentionReason: `HQ has gift ${m.remoteId} that matches this one in every field and carries no GiftDesk reference (typed at HQ, or its notes edited there?). If it is this gift, discard this item; if not, retry to post it.`,
          attentionStatus: null,
          attentionAt: at,
          updatedAt: at,
        });
        out.parked++;
        continue;
      }
      await releaseAbsent(trx, c.item, at);
      out.resolved++;
    }
  });
  if (settled > 0) d.progress(settled);
  return OK;
}

const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

async function sweepContacts(
  d: ReconcileDeps,
  all: Create[],
  at: string,
  out: ReconcileResult,
): Promise<SweepEnd> {
  type Sent = { firstName: string; lastName: string };
  const earliest = Math.min(...all.map((c) => Date.parse(c.item.attemptAt ?? at)));
  let since = earliest - NO_DATE_LOOKBACK_MS;
  const r = await readAll<ContactListItem>(
    d,
    '/contacts',
    { sortBy: 'createdAt', sortOrder: 'desc' },
    'contacts',
    (page, first) => {
      const date = first.headers?.get('date');
      const hqNow = date ? Date.parse(date) : NaN;
      // HQ's clock = ours + skew; the Date header is whole seconds, so this errs early (safe).
      if (!Number.isNaN(hqNow)) since = earliest + (hqNow - first.receivedAt) - SKEW_MARGIN_MS;
      return page.some((c) => Date.parse(c.createdAt) < since);
    },
  );
  if (!r.ok) return r.end;
  const fresh = r.items.filter((c) => Date.parse(c.createdAt) >= since);
  // HQ contacts a push of ours (or a reconcile that saw the tag) linked to another local record
  // were created for that record: never this sweep's. Pulled and email-matched links are not
  // skipped: such a contact could be ours.
  const mine = new Set(all.map((c) => c.item.entityId));
  const others = await linksOf(
    d.store.db,
    d.accountId,
    'contact',
    fresh.map((c) => c.id),
    ['pushed', 'found'],
  );
  const candidates = fresh.filter((c) => {
    const l = others.get(c.id);
    return l === undefined || mine.has(l);
  });
  const byRef = new Map(all.map((c) => [`${REFERENCE_PREFIX}${c.item.entityId}`.toLowerCase(), c]));
  const names = new Set(
    all.map((c) => {
      const s = JSON.parse(c.item.attemptBody!) as Sent;
      return `${norm(s.firstName)}\n${norm(s.lastName)}`;
    }),
  );
  const sameName = (c: ContactListItem) => names.has(`${norm(c.firstName)}\n${norm(c.lastName)}`);
  const found = new Map<string, string>();
  const dueLeft = () => all.some((c) => c.due && !found.has(c.item.entityId));
  const ordered = [...candidates.filter(sameName), ...candidates.filter((c) => !sameName(c))];
  const named = candidates.filter(sameName).length;
  for (const [i, cand] of ordered.entries()) {
    const firstPhase = i < named;
    if (found.size === all.length) break;
    if (!firstPhase && !dueLeft()) break;
    const g = await d.get(`/contacts/${encodeURIComponent(cand.id)}`, {});
    if (!g.ok && g.status === 404) continue; // deleted at HQ since it was listed: not ours to find
    if (!g.ok) return { kind: g.result, message: g.message };
    const tags = (g.body as { tags?: unknown } | null)?.tags;
    for (const t of Array.isArray(tags) ? (tags as unknown[]) : []) {
      const c = typeof t === 'string' ? byRef.get(t.trim().toLowerCase()) : undefined;
      if (c && !found.has(c.item.entityId)) found.set(c.item.entityId, cand.id);
    }
  }
  let settled = 0;
  await d.store.write(async (trx) => {
    for (const c of all) {
      const id = found.get(c.item.entityId);
      if (id !== undefined) {
        settled += await linkFound(d, trx, c.item, id, at, null);
        out.resolved++;
      } else if (c.due) {
        await releaseAbsent(trx, c.item, at);
        out.resolved++;
      }
    }
  });
  if (settled > 0) d.progress(settled);
  return OK;
}
