/**
 * When sync runs, in a server process (`giftdesk serve`, the desktop app): a light poll
 * (every second: one indexed query) starts a pass
 * - soon after local writes (2 s after the outbox last grew), while HQ is reachable;
 * - when a backed-off record's retry is due (its own timer; this is also how a network that
 *   comes back is noticed);
 * - on the schedule (each remote's `scheduleSeconds`), and on demand (`kick`; "sync now" runs
 *   one with `tryNow`: records backing off are tried at once, HQ's pause and the rate still hold).
 * Accounts without remote settings cost nothing. Stops cleanly: the pass in progress finishes
 * its requests in flight (they are aborted at the pacer), then the lease is given up.
 *
 * A station of an event hub (a remote of kind 'hub') keeps event pace: the poll runs every
 * 250 ms and a pass starts at the first poll after a write (no settling), so a saved gift is at
 * the hub within a second or two; and each station account has its hub's feed open
 * (station/feed-loop.ts), with its report sent after every pass that sent something.
 */
import type { Store } from '../db/store.ts';
import { createSyncEngine, type PassResult, type SyncEngine, type SyncEngineOptions } from './push/engine.ts';
import { defaultClient, REQUEST_TIMEOUT_MS } from './push/default-client.ts';
import { recordingAnswers } from './net/reachability.ts';
import type { RemoteConfig } from './remote/settings.ts';
import { stationAccounts } from './remote/hub-remote.ts';
import { type StationLoop, type StationLoopOptions, startStationLoop } from './station/feed-loop.ts';

export interface SchedulerOptions extends SyncEngineOptions {
  pollMs?: number;
  /** How long the outbox must stay still after a write before a pass starts. */
  settleMs?: number;
  onPass?: (r: PassResult) => void;
  onError?: (err: unknown) => void;
  /** A station's feed (the hub's wait, the report's period, the client); false: no feed read. */
  station?: Pick<StationLoopOptions, 'waitSeconds' | 'reportEveryMs' | 'makeClient' | 'onPage'> | false;
}

/** The poll and the settling while this database is a station of a hub. */
const STATION_POLL_MS = 250;
const STATION_CHECK_MS = 2_000;

export interface SyncScheduler {
  readonly engine: SyncEngine;
  start(): void;
  /** Asks for a pass now (or right after the one running). */
  kick(): void;
  /** Runs a pass now, trying records in backoff at once (a person asked), and answers with its result. */
  runNow(accountId?: string): Promise<PassResult>;
  /**
   * At a station: reads the hub's feed now through the account's feed loop and resolves once a
   * read begun after the call has ended; false when this process runs no feed for the account.
   */
  readHubNow(accountId: string): Promise<boolean>;
  readonly running: boolean;
  readonly lastPass: { at: number; result: PassResult } | null;
  stop(): Promise<void>;
}

async function outboxHead(store: Store): Promise<number> {
  const r = await store.db
    .selectFrom('changeLog')
    .select((eb) => eb.fn.max('seq').as('m'))
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .executeTakeFirst();
  return Number(r?.m ?? 0);
}

export function createSyncScheduler(opts: SchedulerOptions): SyncScheduler {
  // Every request's answer is recorded (reachability.ts): the status says whether HQ answers.
  const makeClient =
    opts.makeClient ??
    ((cfg: RemoteConfig) => defaultClient(cfg, opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS));
  const engine = createSyncEngine({
    ...opts,
    makeClient: (cfg) => recordingAnswers(opts.store, cfg.accountId, makeClient(cfg), opts.clock, cfg.kind),
  });
  const clock = opts.clock ?? Date.now;
  const pollMs = opts.pollMs ?? 1000;
  const settleMs = opts.settleMs ?? 2000;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let kicked = false;
  let passing: Promise<PassResult> | null = null;
  let lastPass: { at: number; result: PassResult } | null = null;
  let lastHead = -1;
  let headChangedAt = 0;
  let reachable = true;
  let station = false;
  const loops = new Map<string, StationLoop>();
  let stationsCheckedAt = -Infinity;

  /** Starts the feed of each station account, and stops those that are stations no more. */
  const stationOpts = opts.station === false ? null : (opts.station ?? {});
  async function keepStations(): Promise<void> {
    if (stationOpts === null) return;
    const now = clock();
    if (now - stationsCheckedAt < STATION_CHECK_MS) return;
    stationsCheckedAt = now;
    const accounts = new Set(await stationAccounts(opts.store.db));
    station = accounts.size > 0;
    for (const [accountId, loop] of loops)
      if (!accounts.has(accountId)) {
        loops.delete(accountId);
        void loop.stop();
      }
    for (const accountId of accounts)
      if (!loops.has(accountId) && !stopped)
        loops.set(
          accountId,
          startStationLoop({
            ...stationOpts,
            store: opts.store,
            keys: opts.keys,
            accountId,
            ...(opts.clock ? { clock: opts.clock } : {}),
            ...(opts.onError ? { onError: opts.onError } : {}),
          }),
        );
  }

  async function due(): Promise<boolean> {
    const remotes = await opts.store.db
      .selectFrom('syncRemotes')
      .select(['scheduleSeconds', 'lastAttemptAt'])
      .where('revokedAt', 'is', null)
      .execute();
    if (remotes.length === 0) return false;
    if (kicked) return true;
    const now = clock();
    const head = await outboxHead(opts.store);
    if (head !== lastHead) {
      lastHead = head;
      headChangedAt = now;
    }
    if (
      reachable &&
      head > 0 &&
      now - headChangedAt >= (station ? 0 : settleMs) &&
      (!lastPass || lastPass.at < headChangedAt)
    )
      return true;
    const retry = await engine.nextRetryAt();
    if (retry !== null && retry <= now && (!lastPass || lastPass.at < retry)) return true;
    return remotes.some(
      (r) => !r.lastAttemptAt || Date.parse(r.lastAttemptAt) + Number(r.scheduleSeconds) * 1000 <= now,
    );
  }

  function pass(accountId?: string, tryNow = false): Promise<PassResult> {
    kicked = false;
    passing ??= engine
      .runPass({ ...(accountId ? { accountId } : {}), tryNow })
      .then((result) => {
        lastPass = { at: clock(), result };
        reachable = result.accounts.every((a) => a.failed === 0 || a.requests > a.failed);
        for (const a of result.accounts) if (a.applied > 0) loops.get(a.accountId)?.report();
        opts.onPass?.(result);
        return result;
      })
      .finally(() => {
        passing = null;
      });
    return passing;
  }

  async function tick(): Promise<void> {
    timer = null;
    if (stopped) return;
    try {
      await keepStations();
      if (!passing && (await due())) await pass();
    } catch (err) {
      opts.onError?.(err);
    }
    if (!stopped) timer = setTimeout(() => void tick(), station ? Math.min(pollMs, STATION_POLL_MS) : pollMs);
  }

  return {
    engine,
    start() {
      if (timer || stopped) return;
      timer = setTimeout(() => void tick(), 0);
    },
    kick() {
      kicked = true;
    },
    runNow: (accountId?: string) =>
      passing ? passing.then(() => pass(accountId, true)) : pass(accountId, true),
    async readHubNow(accountId: string) {
      const loop = loops.get(accountId);
      if (!loop) return false;
      await loop.readNow();
      return true;
    },
    get running() {
      return passing !== null;
    },
    get lastPass() {
      return lastPass;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const feeds = [...loops.values()];
      loops.clear();
      await Promise.all(feeds.map((l) => l.stop()));
      await engine.stop();
      if (passing) await passing.catch(() => undefined);
    },
  };
}
