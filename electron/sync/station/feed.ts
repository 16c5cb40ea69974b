/**
 * Reading the hub's feed at a station: one request (GET /hub/changes after the cursor, held
 * open up to `wait` seconds by the hub until something changes), its page checked against the
 * shared shape and applied (apply-feed.ts). `catchUp` reads page after page at once until the
 * hub says nothing more waits — what a join does before it returns, so reference data and the
 * directory are here before the first gift is typed.
 */
import { HubChanges } from '#shared/schemas/hub.ts';
import type { Store } from '../../db/store.ts';
import type { RemoteClient, RemoteResult } from '../net/http-client.ts';
import { getRemoteSettings } from '../remote/settings.ts';
import { applyFeedPage } from './apply-feed.ts';
import { emptyCounts, type FeedCounts } from './feed-contacts.ts';

export type FeedStep =
  | { ok: true; counts: FeedCounts; more: boolean }
  | { ok: false; result: RemoteResult | null; message: string; revoked: boolean };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Changes asked for per page while catching up (the hub's largest page): a join reads the
 * whole event, and each page costs a request and a commit of its own whatever its size.
 */
export const CATCH_UP_PAGE = 500;

/** Reads one page after the stored cursor and applies it. */
export async function readFeedOnce(
  store: Store,
  accountId: string,
  client: RemoteClient,
  opts: { wait: number; signal?: AbortSignal; clock?: () => number; limit?: number },
): Promise<FeedStep> {
  const clock = opts.clock ?? Date.now;
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
  const readAt = iso(clock());
  const result = await client.request('GET', '/hub/changes', undefined, {
    query: { after: settings.hubCursor ?? undefined, wait: opts.wait, limit: opts.limit },
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
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
  const counts = await applyFeedPage(store, accountId, page.data, readAt, iso(clock()), settings.keyId);
  return { ok: true, counts, more: page.data.more };
}

/** Reads every page waiting now (at most `maxPages`), without holding any open. */
export async function catchUp(
  store: Store,
  accountId: string,
  client: RemoteClient,
  opts: { maxPages?: number; signal?: AbortSignal; clock?: () => number } = {},
): Promise<{ ok: true; counts: FeedCounts } | Extract<FeedStep, { ok: false }>> {
  const total = emptyCounts();
  for (let i = 0; i < (opts.maxPages ?? 10_000); i++) {
    const step = await readFeedOnce(store, accountId, client, { ...opts, wait: 0, limit: CATCH_UP_PAGE });
    if (!step.ok) return step;
    for (const k of ['contacts', 'gifts', 'deleted', 'reference', 'notices', 'skipped', 'held'] as const)
      total[k] += step.counts[k];
    total.notes.push(...step.counts.notes);
    if (!step.more) break;
  }
  return { ok: true, counts: total };
}
