/**
 * The push engine: drains the outbox (change_log) to HQ, exactly once, in dependency order,
 * through one pacer per remote. This file wires the modules and runs the pass
 * (docs/design.md, "The push engine's modules").
 *
 * A pass, per account with remote settings:
 * 1. take (or renew) the database's lease (under-lease.ts); without it, do nothing;
 * 2. settle changes nothing is pushed for (reference data);
 * 3. each round: reconcile the unknown outcomes of the account all at once (reconcile.ts), then
 *    gather the records to work on (lanes.ts): every record with changes still to go, oldest
 *    change first (a record still unknown waits, and its lane's later records behind it);
 * 4. run the lanes — a contact and its donations — side by side (as many as rate × HQ's
 *    latency needs), each lane in order, every request through the one pacer;
 * 5. then, to a GiftDesk HQ, the history of what it sent (trail.ts).
 *
 * For one record, up to 8 steps: prepare its next request and mark it in flight (prepare.ts),
 * or match its email at HQ first (email-link.ts); send it under the lease (under-lease.ts);
 * write the answer down (answers.ts: applied → done; not applied → again, backoff, parked, or
 * the pass stops on a refused key; unknown → looked for at HQ before anything else is sent).
 */
import { setMaxListeners } from 'node:events';
import type { Store } from '../../db/store.ts';
import { createContext, type DomainContext } from '../../domain/context.ts';
import { buildLanes, gatherWork, type LaneVerdict, laneWidth, runLanes } from './lanes.ts';
import { LEASE_MS, processHolderId, releaseLease } from '../outbox/lease.ts';
import { type PendingEntity, queueCounts, settleUnpushedTypes } from '../outbox/outbox.ts';
import { configuredAccounts, loadRemoteConfig, noteRemote, type RemoteConfig } from '../remote/settings.ts';
import { readForReconcile, reconcileUnknown } from '../reconcile/reconcile.ts';
import type { KeySource } from '../remote/secret-box.ts';
import { earliestRetryAt, getItem, updateItem } from '../outbox/items.ts';
import type { RemoteClient } from '../net/http-client.ts';
import { restoreKeptDonors } from '../station/kept-donors.ts';
import { defaultClient, REQUEST_TIMEOUT_MS } from './default-client.ts';
import { type ContactMatcher, linkByEmail } from './email-link.ts';
import { prepare, RECHECKED } from './prepare.ts';
import { backOff, isApplied, recordAnswer } from './answers.ts';
import { saidOf } from '../net/remote-words.ts';
import { createLeasedRemote, LEASE_LOST, LostLease, takeLeaseForPass } from './under-lease.ts';
import { sendTrail, trailRemote } from './trail.ts';
export type { ContactMatcher } from './email-link.ts';
import type { AccountPassResult, PassOptions, PassProgress, PassResult } from './pass-types.ts';
export type { AccountPassResult, PassOptions, PassProgress, PassResult } from './pass-types.ts';

export interface SyncLogger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
}
export interface SyncEngineOptions {
  store: Store;
  keys: KeySource;
  /** The client (and its pacer) for a remote; one per remote, reused across passes. Default: default-client.ts, net/'s RemoteClient with its Pacer at the configured rate. */
  makeClient?: (cfg: RemoteConfig) => RemoteClient;
  /** Email match before create (on by default in the settings; sync-pull provides it). */
  matchContact?: ContactMatcher;
  /** Default: this process's id (lease.ts `processHolderId`), which lets a restart take over at once from a dead one. */
  holderId?: string;
  /**
   * The longest any request of this engine's clients may wait for its answer (default
   * REQUEST_TIMEOUT_MS, the default client's deadline). It goes into the holder id: a process
   * taking over from this one after it died waits that long (twice) before reconciling what it
   * had in flight. A client with a longer deadline is refused.
   */
  requestTimeoutMs?: number;
  clock?: () => number;
  random?: () => number;
  log?: SyncLogger;
  leaseMs?: number;
}

type Result = 'ok' | 'blocked' | 'parked' | 'waiting' | 'failed' | 'auth' | 'lease';
const FAILURES_SHOWN = 3;

export function createSyncEngine(opts: SyncEngineOptions) {
  const store = opts.store;
  const db = store.db;
  const clock = opts.clock ?? Date.now;
  const random = opts.random ?? Math.random;
  const requestTimeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const holder = opts.holderId ?? processHolderId(requestTimeoutMs);
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const ctx: DomainContext = createContext(store, () => new Date(clock()).toISOString());
  const makeClient = opts.makeClient ?? ((cfg: RemoteConfig) => defaultClient(cfg, requestTimeoutMs));
  let running: Promise<PassResult> | null = null;
  let stopped = false;
  const abort = new AbortController();
  // Every request waiting in the pacer or on the wire listens to this one signal (up to one per lane).
  setMaxListeners(256, abort.signal);

  const nowIso = () => new Date(clock()).toISOString();
  const remote = createLeasedRemote({
    store,
    holder,
    leaseMs,
    clock,
    requestTimeoutMs,
    makeClient,
    signal: abort.signal,
  });
  const clientFor = remote.clientFor;
  const timed = remote.request;
  const recordDeps = { store, clock, random };

  /** Runs one pass (or joins the one running). */
  function runPass(p: PassOptions = {}): Promise<PassResult> {
    running ??= pass(p).finally(() => {
      running = null;
    });
    return running;
  }

  async function pass(p: PassOptions): Promise<PassResult> {
    if (stopped) return { ran: false, accounts: [] };
    if (!(await takeLeaseForPass(store, { holder, nowMs: clock(), leaseMs })))
      return { ran: false, accounts: [] };
    const accounts = p.accountId ? [p.accountId] : await configuredAccounts(db);
    const out: AccountPassResult[] = [];
    for (const accountId of accounts) {
      if (stopped) break;
      const cfg = await loadRemoteConfig(db, opts.keys, accountId);
      // A station its hub removed from the event sends nothing more.
      if (!cfg || cfg.revokedAt !== null) continue;
      out.push(await passAccount(cfg, p.onProgress, p.tryNow ?? false));
    }
    return { ran: true, accounts: out };
  }

  async function passAccount(
    cfg: RemoteConfig,
    onProgress: ((p: PassProgress) => void) | undefined,
    tryNow: boolean,
  ): Promise<AccountPassResult> {
    const accountId = cfg.accountId;
    const client = clientFor(cfg);
    const result: AccountPassResult = {
      accountId,
      requests: 0,
      applied: 0,
      parked: 0,
      failed: 0,
      stopped: null,
    };
    await store.write((trx) => settleUnpushedTypes(trx, accountId, nowIso()));
    const startCounts = await queueCounts(db, accountId);
    const total = startCounts.pending + startCounts.inFlight;
    let doneCount = 0;
    const progress = (n: number) => {
      doneCount += n;
      onProgress?.({ accountId, done: Math.min(doneCount, total), total });
    };
    progress(0);
    let consecutiveFailures = 0;
    let stopReason: string | null = null;
    let transportFailure = false;
    const passToken = {};

    // Rounds: a round works on what was pending when it started; later writes go next round.
    for (let round = 0; round < 50 && !stopReason && !stopped; round++) {
      // Unknown outcomes first, all at once (reconcile.ts): what is found is linked, what is
      // absent goes in this round's lanes, the rest waits (its lane's records too).
      try {
        const rec = await reconcileUnknown({
          store,
          accountId,
          now: clock,
          get: (path, query) =>
            readForReconcile(
              {
                get: (path, query) => timed(client, 'GET', path, undefined, query),
                cfg,
                clock,
                random,
                stopped: () => stopped,
                counted: () => result.requests++,
              },
              path,
              query,
            ),
          fail: (e, why) => backOff({ ...recordDeps, kind: cfg.kind }, e, why),
          kind: cfg.kind,
          deadlineMs: client.timeoutMs,
          graceMs: client.timeoutMs,
          progress,
        });
        result.parked += rec.parked;
        if (rec.result === 'auth') {
          stopReason = cfg.lastError ?? saidOf(cfg.kind, 'HQ refused the API key');
          break;
        }
        if (rec.result === 'failed') {
          result.failed++;
          transportFailure = true;
        }
      } catch (err) {
        if (!(err instanceof LostLease)) throw err;
        stopReason = LEASE_LOST;
        break;
      }
      const work = await gatherWork(db, accountId);
      if (work.length === 0) break;
      const lanes = [...(await buildLanes(db, work)).values()];
      let progressed = false;
      await runLanes({
        lanes,
        width: () => laneWidth(cfg.ratePerSecond, remote.latencyMs(), lanes.length),
        stopped: () => stopReason !== null || stopped,
        step: async (e): Promise<LaneVerdict> => {
          let r: Result;
          try {
            r = await processEntity(cfg, client, e, result, progress, passToken, tryNow);
          } catch (err) {
            if (err instanceof LostLease) {
              stopReason = LEASE_LOST;
              return 'endLane';
            }
            throw err;
          }
          if (r === 'ok') {
            progressed = true;
            consecutiveFailures = 0;
          } else if (r === 'parked') {
            progressed = true;
            result.parked++;
          } else if (r === 'failed') {
            result.failed++;
            transportFailure = true;
            if (++consecutiveFailures >= FAILURES_SHOWN)
              stopReason = saidOf(cfg.kind, 'HQ cannot be reached or keeps failing; retrying later');
            return 'endLane'; // the rest of this lane waits for the backoff
          } else if (r === 'auth') {
            stopReason = cfg.lastError ?? saidOf(cfg.kind, 'HQ refused the API key');
          } else if (r === 'lease') {
            stopReason = LEASE_LOST;
          }
          return 'next';
        },
      });
      if (!progressed) break;
    }
    if (stopReason)
      result.stopped = stopReason; // then a station gets back the donors the hub kept, HQ the history:
    else if (cfg.kind === 'hub') await restoreKeptDonors(store, accountId, client, clock);
    else result.requests += await sendTrail(store, cfg, clock, trailRemote(remote, client));
    const paused = client.pacer.pausedUntil;
    await store.write((trx) =>
      noteRemote(trx, accountId, {
        lastAttemptAt: nowIso(),
        ...(transportFailure || stopReason
          ? { lastError: stopReason ?? 'some requests failed; retrying with backoff' }
          : { lastSuccessAt: nowIso(), lastError: null }),
        pausedUntil: paused && paused > clock() ? new Date(paused).toISOString() : null,
        currentRate: client.pacer.currentRate,
      }),
    );
    return result;
  }

  async function processEntity(
    cfg: RemoteConfig,
    client: RemoteClient,
    e: PendingEntity,
    result: AccountPassResult,
    progress: (n: number) => void,
    passToken: object,
    tryNow: boolean,
  ): Promise<Result> {
    let emailChecked = false;
    let askedExtensions = false;
    let outcome: Result = 'ok';
    for (let round = 0; round < 8; round++) {
      const item = await getItem(db, e.entityType, e.entityId);
      if (item?.state === 'attention') {
        if (!item.attentionCode || !RECHECKED.has(item.attentionCode))
          return round === 0 ? 'waiting' : outcome;
      }
      // Backing off, unless a person asked and the failure left HQ unchanged (state idle).
      if (item?.nextTryAt && Date.parse(item.nextTryAt) > clock() && !(tryNow && item.state === 'idle'))
        return round === 0 ? 'waiting' : outcome;
      // Unknown outcome: reconciled with the others at the start of a round (reconcile.ts).
      if (item && (item.state === 'unknown' || item.state === 'in_flight'))
        return round === 0 ? 'waiting' : outcome;
      const step = await prepare({
        store,
        ctx,
        holder,
        leaseMs,
        clock,
        cfg,
        record: e,
        emailMatch: !emailChecked && opts.matchContact !== undefined,
        progress,
        extensions: remote.extensions(client),
      });
      if (step.kind === 'done') return outcome;
      if (step.kind === 'blocked') {
        if (item)
          await store.write((trx) =>
            updateItem(trx, e.entityType, e.entityId, {
              lastError: saidOf(cfg.kind, step.reason),
              updatedAt: nowIso(),
            }),
          );
        return 'blocked';
      }
      if (step.kind === 'parked') return step.again ? 'waiting' : 'parked';
      if (step.kind === 'askExtensions') {
        // One spec read: its answer's header names the remote's extensions (under-lease.ts).
        if (askedExtensions) return round === 0 ? 'waiting' : outcome; // no answer: next pass
        askedExtensions = true;
        result.requests++;
        await timed(client, 'GET', '/contacts', undefined, { accountId: cfg.remoteAccountId, limit: 1 });
        continue;
      }
      if (step.kind === 'emailCheck') {
        emailChecked = true;
        if (!opts.matchContact) continue;
        const linked = await linkByEmail({
          deps: { ...recordDeps, kind: cfg.kind },
          matcher: opts.matchContact,
          client,
          get: (path, query) => timed(client, 'GET', path, undefined, query),
          counted: () => result.requests++,
          cfg,
          contactId: e.entityId,
          email: step.email,
          pass: passToken,
        });
        if (linked !== 'checked') return linked;
        continue;
      }
      result.requests++;
      const res = await timed(client, step.method, step.path, step.body, step.query);
      const r = await recordAnswer(
        { ...recordDeps, kind: cfg.kind },
        {
          cfg,
          record: e,
          step,
          res,
          deadlineMs: client.timeoutMs,
          progress,
        },
      );
      if (r === 'again') {
        result.applied += isApplied(step, res) ? 1 : 0;
        outcome = 'ok';
        continue;
      }
      if (r === 'folded') {
        result.applied++;
        return 'ok';
      }
      return r;
    }
    return outcome;
  }

  return {
    holder,
    runPass,
    /** Stops after the requests in flight; gives the lease up. */
    async stop(): Promise<void> {
      stopped = true;
      abort.abort(new Error('sync is stopping'));
      if (running) await running.catch(() => undefined);
      await releaseLease(store, holder).catch(() => undefined);
    },
    /**
     * When the next retry of a backed-off record is due (ms since epoch), or null: the earliest
     * backoff still running; when none is, the earliest already due (a record no pass has
     * retried yet). A due time never hides a later one still to come.
     */
    nextRetryAt(): Promise<number | null> {
      return earliestRetryAt(db, nowIso());
    },
  };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;
