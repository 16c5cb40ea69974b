/**
 * Reading the hub's feed at a station: one request (GET /hub/changes after the cursor, held
 * open up to `wait` seconds by the hub until something changes), its page checked against the
 * shared shape and applied (apply-feed.ts). `catchUp` reads page after page at once until the
 * hub says nothing more waits — what a join does before it returns, so reference data and the
 * directory are here before the first gift is typed.
 */
import { HubChanges } from '#shared/schemas/hub.ts';
import { applyDonorTotalDeltas } from '../../db/donor-total-deltas.ts';
import type { Store } from '../../db/store.ts';
import type { RemoteClient, RemoteResult } from '../net/http-client.ts';
import { getRemoteSettings } from '../remote/settings.ts';
import { applyFeedPage, type FeedPage } from './apply-feed.ts';
import { emptyCounts, type FeedCounts } from './feed-contacts.ts';
import { restoreKeptDonors } from './kept-donors.ts';

export type FeedStep =
  | { ok: true; counts: FeedCounts; more: boolean }
  | { ok: false; result: RemoteResult | null; message: string; revoked: boolean };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Changes asked for per page while catching up (the hub's largest page): a join reads the
 * whole event, and each page costs a request and a commit of its own whatever its size. A hub
 * of an earlier version answers at most 500 (it refuses a larger `limit`; then 500 is asked).
 */
export const CATCH_UP_PAGE = 2000;
const EARLIER_HUB_PAGE = 500;

/** `readAt`: when the hub's answer arrived (the page is no newer). */
type Asked = { readAt: string; result: RemoteResult };
type Settings = NonNullable<Awaited<ReturnType<typeof getRemoteSettings>>>;

/** This account's hub settings, or why its feed cannot be read. */
async function hubSettings(
  store: Store,
  accountId: string,
): Promise<{ ok: true; settings: Settings } | Extract<FeedStep, { ok: false }>> {
  const settings = await getRemoteSettings(store.db, accountId);
  if (!settings || settings.kind !== 'hub')
    return {
      ok: false,
      result: null,
      message: 'This account is not a station of an event hub',
      revoked: false,
    };
  if (settings.revokedAt !== null)
    return { ok: false, result: null, message: 'This station was removed from the event', revoked: true };
  return { ok: true, settings };
}

/**
 * Asks the hub for the page after `after`. The page is as the hub held it when it answered, which
 * for a long poll (or a busy hub) is well after the request left: a change this station's engine
 * had confirmed before the answer arrived is in the page or before it, so the page's value
 * stands; one confirmed while the request was out may be either (feed-contacts.ts).
 */
async function ask(
  client: RemoteClient,
  after: string | null,
  opts: { wait: number; signal?: AbortSignal; clock: () => number; limit?: number },
): Promise<Asked> {
  const result = await client.request('GET', '/hub/changes', undefined, {
    query: { after: after ?? undefined, wait: opts.wait, limit: opts.limit },
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { readAt: iso(opts.clock()), result };
}

/** The hub's answer as a page, or why it is not one. */
function pageOf(result: RemoteResult): { ok: true; page: FeedPage } | Extract<FeedStep, { ok: false }> {
  if (result.status !== 200) {
    const revoked = result.status === 401 && result.error?.code === 'station_revoked';
    const message =
      result.error?.message ??
      result.networkError?.message ??
      `The hub answered ${result.status ?? 'nothing'}`;
    return { ok: false, result, message, revoked };
  }
  const page = HubChanges.safeParse(result.body);
  if (!page.success)
    return { ok: false, result, message: 'The hub’s answer was not a page of its changes', revoked: false };
  return { ok: true, page: page.data };
}

/** Whether the hub refused the size of page asked for (a hub of an earlier version). */
function refusedLimit(result: RemoteResult): boolean {
  return result.status === 400 && (result.error?.details ?? []).some((d) => d.field === 'limit');
}

/** Reads one page after the stored cursor and applies it. */
export async function readFeedOnce(
  store: Store,
  accountId: string,
  client: RemoteClient,
  opts: { wait: number; signal?: AbortSignal; clock?: () => number; limit?: number },
): Promise<FeedStep> {
  const clock = opts.clock ?? Date.now;
  const s = await hubSettings(store, accountId);
  if (!s.ok) return s;
  // Donors whose deletion here the hub refused come back first (kept-donors.ts).
  await restoreKeptDonors(store, accountId, client, clock);
  const asked = await ask(client, s.settings.hubCursor, { ...opts, clock });
  const p = pageOf(asked.result);
  if (!p.ok) return p;
  const counts = await applyFeedPage(store, accountId, p.page, asked.readAt, iso(clock()), s.settings.keyId);
  return { ok: true, counts, more: p.page.more };
}

/**
 * Reads every page waiting now (at most `maxPages`), without holding any open. While a page is
 * applied the next one is already asked for (after the cursor the page carries), so the hub
 * reads and sends it meanwhile; it is applied only if the page before it moved the stored
 * cursor there (else it is asked for again, after the stored cursor). Every page but the last
 * is committed without a sync of its own (apply-feed.ts): the last one's synced commit makes
 * them all durable, and a power cut before it only sends the station back to an earlier cursor.
 */
export async function catchUp(
  store: Store,
  accountId: string,
  client: RemoteClient,
  opts: {
    maxPages?: number;
    signal?: AbortSignal;
    clock?: () => number;
    /**
     * A join's catch-up (SQLite): the new gifts' donor totals are left to donor_total_deltas
     * page by page and moved once, sorted by donor, when the catch-up ends (as the CLI's import
     * does; db/donor-total-deltas.ts). Until then a donor's total leaves those gifts out; a
     * store opened after the join was killed moves what was left.
     */
    deferTotals?: boolean;
    /** Told each page's counts once it is written (a join's progress). */
    onPage?: (counts: FeedCounts) => void;
  } = {},
): Promise<{ ok: true; counts: FeedCounts } | Extract<FeedStep, { ok: false }>> {
  const clock = opts.clock ?? Date.now;
  const total = emptyCounts();
  const deferTotals = opts.deferTotals === true && store.engine === 'sqlite';
  const asking = { wait: 0, limit: CATCH_UP_PAGE, clock, ...(opts.signal ? { signal: opts.signal } : {}) };
  let ahead: { after: string; asked: Promise<Asked> } | null = null;
  try {
    for (let i = 0; i < (opts.maxPages ?? 10_000); i++) {
      const s = await hubSettings(store, accountId);
      if (!s.ok) return s;
      const after = s.settings.hubCursor;
      // A page asked for after another cursor than the stored one is not used.
      if (ahead !== null && ahead.after !== after) await ahead.asked.catch(() => undefined);
      const asked: Asked =
        ahead !== null && ahead.after === after ? await ahead.asked : await ask(client, after, asking);
      ahead = null;
      if (refusedLimit(asked.result) && asking.limit > EARLIER_HUB_PAGE) {
        asking.limit = EARLIER_HUB_PAGE;
        i--;
        continue;
      }
      const p = pageOf(asked.result);
      if (!p.ok) return p;
      const last = i + 1 >= (opts.maxPages ?? 10_000);
      if (p.page.more && !last) {
        ahead = { after: p.page.cursor, asked: ask(client, p.page.cursor, asking) };
        ahead.asked.catch(() => undefined); // its failure is met when it is awaited
      }
      const counts = await applyFeedPage(
        store,
        accountId,
        p.page,
        asked.readAt,
        iso(clock()),
        s.settings.keyId,
        { unsynced: p.page.more && !last, deferTotals },
      );
      for (const k of ['contacts', 'gifts', 'deleted', 'reference', 'notices', 'skipped', 'held'] as const)
        total[k] += counts[k];
      total.notes.push(...counts.notes);
      opts.onPage?.(counts);
      if (!p.page.more) break;
    }
  } finally {
    // A page asked for ahead and not applied (an error, the last page): its answer is let go.
    if (ahead !== null) await ahead.asked.catch(() => undefined);
    if (deferTotals) await applyDonorTotalDeltas(store);
  }
  return { ok: true, counts: total };
}
