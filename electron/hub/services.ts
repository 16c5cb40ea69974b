/**
 * What a hub keeps in memory for as long as its server runs, shared by every listener on the
 * same database (the app's own and the HTTPS one it hosts the event on): the wrong-code limit,
 * the long-poll waiters, which API keys are stations' (a key's station never changes), and
 * when each station was last noted as seen (written at most every few seconds, not per request),
 * and how the feed gathers changes before it answers (`pace`).
 */
import { pause } from '#shared/pause.ts';
import type { DomainContext } from '../domain/index.ts';
import { machineIpv4Addresses } from './addresses.ts';
import { createFeedWaiters, type FeedWaiters } from './feed-waiters.ts';
import { stationOfKey, touchStation } from './stations.ts';
import { createWrongCodeLimit, type WrongCodeLimit } from './wrong-codes.ts';

/**
 * How long a long poll of the feed gathers changes before it answers: an answer that is not a
 * full page leaves no sooner than this after its request arrived, so at event pace one answer
 * carries the changes of a quarter second and a station asks at most four times a second.
 */
export const FEED_GATHER_MS = 250;

/** The feed's pace: the gathering time, the clock it is measured on and how it waits (tests drive both). */
export interface FeedPace {
  gatherMs: number;
  now(): number;
  /** Resolves after `ms`, or at once when the signal aborts. */
  pause(ms: number, signal: AbortSignal): Promise<void>;
}

export interface KeyStation {
  id: string;
  accountId: string;
  name: string;
}

/** Hosting the event from a running server: its HTTPS listener, started on demand. */
export interface HubHosting {
  /** Starts (or returns) the hub's listener for the account; its address. */
  host(opts: { accountId: string; host?: string; port?: number }): Promise<{ url: string }>;
  /** The listener's address and account while it runs, else null. */
  current(): { url: string; accountId: string } | null;
}

export interface HubServices {
  ctx: DomainContext;
  /** Where the certificate lives (null: this server cannot host, e.g. none was given). */
  dataDir: string | null;
  wrongCodes: WrongCodeLimit;
  feed: FeedWaiters;
  pace: FeedPace;
  /** The station whose key this is (null: not a station's key); cached. */
  stationOfKey(keyId: string): Promise<KeyStation | null>;
  /** Notes that a station was heard from (a write at most every `seenEveryMs`). */
  seen(stationId: string): void;
  /** Set by the server that can host (serve.ts). */
  hosting: HubHosting | null;
  /** The machine's network addresses (IPv4), for the addresses a station may use. */
  machineAddresses(): string[];
  close(): void;
}

export function createHubServices(
  ctx: DomainContext,
  opts: {
    dataDir?: string | null;
    /** Milliseconds now, for the wrong-code limit (tests drive it). */
    now?: () => number;
    seenEveryMs?: number;
    feedIntervalMs?: number;
    feedGatherMs?: number;
    onError?: (err: unknown) => void;
    /** The machine's network addresses (default: its interfaces'). */
    machineAddresses?: () => string[];
  } = {},
): HubServices {
  const now = opts.now ?? Date.now;
  const seenEveryMs = opts.seenEveryMs ?? 5000;
  const keys = new Map<string, KeyStation | null>();
  const lastSeen = new Map<string, number>();
  const feed = createFeedWaiters(ctx.store, { intervalMs: opts.feedIntervalMs, onError: opts.onError });
  return {
    ctx,
    dataDir: opts.dataDir ?? null,
    wrongCodes: createWrongCodeLimit(ctx.store, { now }),
    feed,
    pace: { gatherMs: opts.feedGatherMs ?? FEED_GATHER_MS, now: Date.now, pause },
    async stationOfKey(keyId) {
      const known = keys.get(keyId);
      if (known !== undefined) return known;
      const row = await stationOfKey(ctx.store.db, keyId);
      const station = row ? { id: row.id, accountId: row.accountId, name: row.name } : null;
      if (keys.size >= 10_000) keys.clear();
      keys.set(keyId, station);
      return station;
    },
    seen(stationId) {
      const t = now();
      if (t - (lastSeen.get(stationId) ?? -Infinity) < seenEveryMs) return;
      lastSeen.set(stationId, t);
      touchStation(ctx, stationId).catch((err: unknown) => opts.onError?.(err));
    },
    hosting: null,
    machineAddresses: opts.machineAddresses ?? machineIpv4Addresses,
    close() {
      feed.close();
    },
  };
}
