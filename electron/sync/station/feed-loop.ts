/**
 * A station's connection to its hub, in a server process (the scheduler starts one per
 * station account): a loop that holds the hub's feed open (GET /hub/changes, `wait` seconds)
 * and applies each page as it comes, so a donor or a gift entered at another station is here
 * within a second or two; and the station's report (report.ts) every few seconds.
 *
 * - The report is coalesced: one asked for after a push pass goes at once when the last went
 *   at least REPORT_GAP_MS ago, else when that gap has passed (the last pass of the night, the
 *   outbox quiet, is reported within it); and every REPORT_EVERY_MS in any case. So a station
 *   passing several times a second reports every two seconds, not after every pass.
 * - A refusal for pace (429) waits for the hub's Retry-After before the next read or report;
 *   nothing is lost: the cursor moves only with a page applied, and the report goes again.
 *
 * - One reader per account and database: a lease of its own (`hub-feed:<account>`, lease.ts's
 *   rules: a live holder keeps it, a dead process's is taken at once), renewed before each read.
 * - The hub unreachable: the loop waits 1 s, then twice as long each time, up to 30 s, and
 *   carries on; nothing here waits on it (gift entry goes on, the outbox holds what is typed).
 * - `readNow()` reads at once (a long poll under way is let finish: the hub wakes it for its own
 *   write) and answers once a read that began after the call is applied, so a correction the
 *   hub made for this station shows here before the station's route answers.
 * - Stops for good when the hub removed this station (revoked_at recorded by any request's
 *   401 station_revoked) or the account stops being a station; `stop()` ends it at once.
 */
import { pause } from '#shared/pause.ts';
import type { Store } from '../../db/store.ts';
import type { RemoteClient } from '../net/http-client.ts';
import { recordingAnswers } from '../net/reachability.ts';
import { acquireLease, processHolderId, releaseLease } from '../outbox/lease.ts';
import { defaultClient } from '../push/default-client.ts';
import type { KeySource } from '../remote/secret-box.ts';
import { loadRemoteConfig, type RemoteConfig } from '../remote/settings.ts';
import type { FeedCounts } from './feed-contacts.ts';
import { readFeedOnce } from './feed.ts';
import { sendReport } from './report.ts';
import { noteMarksTaken } from '../push/marks.ts';

export const FEED_WAIT_SECONDS = 20;
export const REPORT_EVERY_MS = 5_000;
/** The least time between two reports (a report asked for sooner waits for it). */
export const REPORT_GAP_MS = 2_000;
const MAX_BACKOFF_MS = 30_000;

export interface StationLoopOptions {
  store: Store;
  keys: KeySource;
  accountId: string;
  clock?: () => number;
  /** How long the hub may hold a read open (seconds, default 20). */
  waitSeconds?: number;
  reportEveryMs?: number;
  reportGapMs?: number;
  /** The client for a remote with a deadline (default: default-client.ts, pinned to the hub). */
  makeClient?: (cfg: RemoteConfig, timeoutMs: number) => RemoteClient;
  onPage?: (counts: FeedCounts) => void;
  onError?: (err: unknown) => void;
}

export interface StationLoop {
  readonly accountId: string;
  /** Asks for the station's report (after a push pass that changed something): sent at once, or when the gap since the last has passed. */
  report(): void;
  /**
   * Reads the hub's feed now (no long poll) and resolves once a read that began after this
   * call has ended (applied, or failed: the hub may be away); at once when the loop stopped.
   */
  readNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startStationLoop(o: StationLoopOptions): StationLoop {
  const { store, accountId } = o;
  const clock = o.clock ?? Date.now;
  const wait = o.waitSeconds ?? FEED_WAIT_SECONDS;
  const timeoutMs = (wait + 10) * 1000;
  const leaseMs = timeoutMs + 15_000;
  const leaseName = `hub-feed:${accountId}`;
  const holder = processHolderId(timeoutMs);
  const make = o.makeClient ?? ((cfg: RemoteConfig, ms: number) => defaultClient(cfg, ms));
  const abort = new AbortController();
  // A client per hub: a station moved to a replacement hub (replace.ts) reads the new one.
  let feedClient: { hub: string; client: RemoteClient } | null = null;
  let reportClient: { hub: string; client: RemoteClient } | null = null;
  const hubOf = (cfg: RemoteConfig) => `${cfg.baseUrl}\n${cfg.keyId}\n${cfg.pinnedFingerprint ?? ''}`;
  const everyMs = o.reportEveryMs ?? REPORT_EVERY_MS;
  const gapMs = Math.min(o.reportGapMs ?? REPORT_GAP_MS, everyMs);
  let reporting = false;
  let lastReportAt = -Infinity;
  /** A report was asked for and has not gone yet. */
  let reportDue = false;
  /** The hub asked for a pause (429): no report before this. */
  let reportNotBefore = 0;

  /** Reads begun so far; `readNow` waits for one numbered above what had begun at its call. */
  let readsBegun = 0;
  let loopEnded = false;
  let urgent = false;
  let wakePause: AbortController | null = null;
  const readWaiters: Array<{ after: number; resolve: () => void }> = [];
  /** Resolves the waiters a read numbered `n` answers (every one once the loop stops). */
  function readEnded(n: number): void {
    for (let i = readWaiters.length - 1; i >= 0; i--)
      if (readWaiters[i]!.after < n) readWaiters.splice(i, 1)[0]!.resolve();
  }

  /** The hub's settings while this account is a station still; null once it is not. */
  async function hubConfig(): Promise<RemoteConfig | null> {
    const cfg = await loadRemoteConfig(store.db, o.keys, accountId);
    return cfg && cfg.kind === 'hub' && cfg.revokedAt === null ? cfg : null;
  }

  async function report(): Promise<void> {
    if (reporting || abort.signal.aborted) return;
    reporting = true;
    try {
      const cfg = await hubConfig();
      if (!cfg) return;
      if (reportClient?.hub !== hubOf(cfg))
        reportClient = {
          hub: hubOf(cfg),
          client: recordingAnswers(store, accountId, make(cfg, 15_000), clock, 'hub'),
        };
      lastReportAt = clock();
      reportDue = false;
      const result = await sendReport(store.db, accountId, reportClient.client, abort.signal);
      // The hub says whether its HQ takes thank-you marks: written down (only a change is), so
      // the station's status says it once (status.ts marksNote).
      const takes = (result.body as { hqTakesThankYouMarks?: unknown } | null)?.hqTakesThankYouMarks;
      if (result.outcome === 'applied' && typeof takes === 'boolean')
        await store.write((trx) => noteMarksTaken(trx, accountId, takes, new Date(clock()).toISOString()));
      if (result.status === 429) {
        reportNotBefore = clock() + (result.retryAfterMs ?? 1000);
        reportDue = true;
      }
    } catch (err) {
      o.onError?.(err);
    } finally {
      reporting = false;
    }
  }

  /** Sends the report when one is due and the gap (and any pause the hub asked for) has passed. */
  function reportWhenDue(): void {
    const now = clock();
    if (now < reportNotBefore) return;
    if ((reportDue && now - lastReportAt >= gapMs) || now - lastReportAt >= everyMs - 50) void report();
  }

  /** One read (after the lease is renewed): the pause to take before the next, or null to stop. */
  async function readOnce(state: { backoff: number; more: boolean }): Promise<number | null> {
    const cfg = await hubConfig();
    if (!cfg) return null;
    const grant = await acquireLease(store, holder, clock(), leaseMs, leaseName);
    // Another process reads this account's feed: a read asked for here cannot be made.
    if (!grant) {
      readEnded(Infinity);
      return leaseMs / 3;
    }
    if (feedClient?.hub !== hubOf(cfg))
      feedClient = {
        hub: hubOf(cfg),
        client: recordingAnswers(store, accountId, make(cfg, timeoutMs), clock, 'hub'),
      };
    const n = ++readsBegun;
    const now = urgent;
    urgent = false;
    const step = await readFeedOnce(store, accountId, feedClient.client, {
      wait: state.more || now ? 0 : wait,
      signal: abort.signal,
      clock,
    }).finally(() => readEnded(n));
    if (step.ok) {
      state.backoff = 0;
      state.more = step.more;
      const c = step.counts;
      if (c.contacts + c.gifts + c.deleted + c.reference + c.notices > 0) o.onPage?.(c);
      return 0;
    }
    if (step.revoked) return null;
    // Refused for pace: wait as long as the hub asked (the pacer holds the queue as long too).
    if (step.result?.status === 429) return Math.max(step.result.retryAfterMs ?? 1000, 1);
    // The hub answered, but not with a page this station can read (another version of GiftDesk?).
    if (step.result?.status === 200) o.onError?.(new Error(step.message));
    state.backoff = state.backoff === 0 ? 1000 : Math.min(state.backoff * 2, MAX_BACKOFF_MS);
    return state.backoff;
  }

  async function readLoop(): Promise<void> {
    const state = { backoff: 0, more: false };
    while (!abort.signal.aborted) {
      let next: number | null;
      try {
        next = await readOnce(state);
      } catch (err) {
        if (abort.signal.aborted) break;
        o.onError?.(err);
        state.backoff = state.backoff === 0 ? 1000 : Math.min(state.backoff * 2, MAX_BACKOFF_MS);
        next = state.backoff;
      }
      if (next === null) break;
      if (next > 0 && !urgent) {
        wakePause = new AbortController();
        await pause(next, AbortSignal.any([abort.signal, wakePause.signal]));
        wakePause = null;
      }
    }
  }

  const reportTimer = setInterval(reportWhenDue, Math.min(250, gapMs));
  const running = readLoop()
    .catch((err: unknown) => o.onError?.(err))
    .finally(() => {
      clearInterval(reportTimer);
      loopEnded = true;
      readEnded(Infinity);
    });
  void report();

  return {
    accountId,
    report() {
      reportDue = true;
      reportWhenDue();
    },
    readNow() {
      if (abort.signal.aborted || loopEnded) return Promise.resolve();
      const waiter = new Promise<void>((resolve) => readWaiters.push({ after: readsBegun, resolve }));
      urgent = true;
      wakePause?.abort();
      return waiter;
    },
    async stop() {
      abort.abort();
      clearInterval(reportTimer);
      await running;
      await releaseLease(store, holder, leaseName).catch(() => undefined);
    },
  };
}
