/**
 * One Pacer per remote, and every request to that remote (push, reconcile read, pull) goes
 * through it:
 *
 * - a token bucket at the configured rate (default 5/s) holding at most `burst` tokens
 *   (default 1, so any one-second window sees at most rate + 1 requests);
 * - the remote's own limits, read from every response: `RateLimit-Policy` (IETF drafts:
 *   `10;w=1` or `"default";q=10;w=1`) lowers the rate to what it allows; a remaining of 0
 *   (`X-RateLimit-Remaining` with `X-RateLimit-Reset`, or `RateLimit`/`RateLimit-Remaining`
 *   with their reset) holds every request until that reset;
 * - a 429 pauses the WHOLE queue until its Retry-After (header, else the body's
 *   `retryAfter`, else a default that doubles while 429s keep coming without one) and
 *   halves the rate — once per pause, not once per 429 of the same burst. After the pause
 *   the rate grows back by `recoveryStep` every `recoveryIntervalMs` (AIMD) up to the
 *   configured rate. A 503 with Retry-After pauses the queue too, without lowering the rate.
 *
 * `acquire()` resolves, in FIFO order, only when a token is there and nothing holds the
 * queue. A request that acquired a token may still lose the race with a 429 that arrives
 * before it leaves, so the sender calls `isHeld()` right before sending and, if held,
 * `release()`s and acquires again (RemoteClient does this). Every acquired token ends in
 * exactly one `observe()` (a response came) or `release()` (none did).
 */
import { systemClock, type Clock } from './clock.ts';

export interface HeaderGetter {
  get(name: string): string | null;
}

export interface PacerOptions {
  /** Requests per second, the configured rate (default 5). */
  ratePerSecond?: number;
  /** Bucket size: how many requests may leave back to back after an idle spell (default 1). */
  burst?: number;
  clock?: Clock;
  /** First pause for a 429 that says nothing about when to come back (default 1 s); doubles per such 429 in a row. */
  defaultPauseMs?: number;
  /** Longest pause any one answer can impose (default 15 min); past it the next answer decides again. */
  maxPauseMs?: number;
  /** Additive increase per interval after a 429 (default a tenth of the configured rate). */
  recoveryStep?: number;
  recoveryIntervalMs?: number;
  /** The rate never drops below this (default configured / 32). */
  minRate?: number;
}

export interface PacerStatus {
  configuredRate: number;
  currentRate: number;
  pausedUntil: number | null;
  waiting: number;
  inFlight: number;
  /** 429 answers seen since this pacer was made. */
  rateLimited: number;
}

export interface Pacer {
  acquire(signal?: AbortSignal): Promise<void>;
  /** A response arrived for a request that acquired a token. */
  observe(status: number, headers: HeaderGetter | null, retryAfterMs: number | null): void;
  /** A request that acquired a token ended without a response, or never left. */
  release(): void;
  /** True when no request may leave right now (a 429 pause or an exhausted remote quota). */
  isHeld(): boolean;
  readonly pausedUntil: number | null;
  readonly currentRate: number;
  readonly configuredRate: number;
  status(): PacerStatus;
  /** Rejects every waiter (shutdown). */
  close(reason?: unknown): void;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

const MAX_SERVER_HOLD_MS = 60_000; // a reset far ahead is more likely clock skew than advice
/** A reset this close (whole seconds, rounded up) is a bucket refilling, not a quota spent. */
const SHORT_RESET_MS = 2000;
/** The pace while the remote's bucket is dry (a fraction of the rate): enough slack for it to fill back up. */
const EASED_PACE = 0.95;

export function createPacer(opts: PacerOptions = {}): Pacer {
  const clock = opts.clock ?? systemClock;
  const configured = positive(opts.ratePerSecond, 5);
  const burst = Math.max(1, opts.burst ?? 1);
  const defaultPauseMs = opts.defaultPauseMs ?? 1000;
  const maxPauseMs = opts.maxPauseMs ?? 15 * 60_000;
  const recoveryStep = positive(opts.recoveryStep, configured / 10);
  const recoveryIntervalMs = positive(opts.recoveryIntervalMs, 1000);
  const minRate = Math.min(configured, positive(opts.minRate, configured / 32));

  let ceiling = configured; // lowered by a RateLimit-Policy
  let decreasedRate = configured; // the rate right after the last 429
  let recoveryFrom = -Infinity; // when additive increase starts
  let tokens = burst;
  let lastRefill = clock.now();
  let pausedUntil = 0; // 429 / 503 pause
  let heldUntil = 0; // the remote said remaining = 0
  let unhintedInARow = 0;
  let eased = false; // the remote said none remain, with a reset within the second or two
  let inFlight = 0;
  let rateLimited = 0;
  let closed: { reason: unknown } | null = null;
  const waiters: Waiter[] = [];
  let timer: AbortController | null = null;

  function rateAt(t: number): number {
    const ease = eased ? EASED_PACE : 1;
    if (t < recoveryFrom) return Math.min(decreasedRate, ceiling) * ease;
    const steps = Number.isFinite(recoveryFrom)
      ? Math.floor((t - recoveryFrom) / recoveryIntervalMs)
      : Infinity;
    return Math.max(minRate, Math.min(ceiling, decreasedRate + steps * recoveryStep) * ease);
  }

  function refill(t: number): void {
    if (t <= lastRefill) return;
    // The rate at the start of the span: during recovery that is the lower one (never too fast).
    tokens = Math.min(burst, tokens + ((t - lastRefill) / 1000) * rateAt(lastRefill));
    lastRefill = t;
  }

  function holdUntil(t: number): number {
    const h = Math.max(pausedUntil, heldUntil);
    return h > t ? h : 0;
  }

  function schedule(ms: number): void {
    const ac = new AbortController();
    timer = ac;
    clock.sleep(ms, ac.signal).then(
      () => {
        if (timer === ac) timer = null;
        pump();
      },
      () => undefined,
    );
  }

  function pump(): void {
    if (timer) {
      timer.abort();
      timer = null;
    }
    while (waiters.length > 0) {
      const t = clock.now();
      refill(t);
      const hold = holdUntil(t);
      let wait = hold > 0 ? hold - t : 0;
      if (wait === 0 && tokens < 1) wait = Math.ceil(((1 - tokens) / rateAt(t)) * 1000);
      if (wait > 0) {
        schedule(wait);
        return;
      }
      tokens -= 1;
      inFlight += 1;
      const w = waiters.shift()!;
      w.signal?.removeEventListener('abort', w.onAbort);
      w.resolve();
    }
  }

  function readRemoteLimits(headers: HeaderGetter, t: number): void {
    // Policy: the rate the remote allows, when it says so.
    const policy = headers.get('ratelimit-policy') ?? headers.get('x-ratelimit-policy');
    if (policy) {
      const allowed = policyRate(policy);
      if (allowed !== null) ceiling = Math.max(minRate, Math.min(configured, allowed));
    }
    // Remaining / reset: hold everything when none remain.
    const quota = remoteQuota(headers, t);
    if (quota && quota.remaining <= 0) {
      const reset = quota.resetAt ?? t + 1000;
      if (reset - t <= SHORT_RESET_MS) {
        // Resets come in whole seconds. One this close is a token bucket refilling within the
        // second, rounded up: waiting it out would idle up to a second every time the remote's
        // bucket dips below one token (half the rate against a small burst). We already pace
        // at the configured rate, the remote's own; the dip comes from arrivals bunched by the
        // network. Easing the pace a little lets its bucket fill back up; a remote slower than
        // configured answers 429 with Retry-After, which pauses and halves our rate (above).
        eased = true;
      } else {
        heldUntil = Math.max(heldUntil, Math.min(reset, t + MAX_SERVER_HOLD_MS));
      }
    } else if (quota) {
      eased = false;
    }
  }

  return {
    acquire(signal) {
      if (closed) return Promise.reject(closed.reason);
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = {
          resolve,
          reject,
          signal,
          onAbort: () => {
            const i = waiters.indexOf(w);
            if (i >= 0) waiters.splice(i, 1);
            reject(signal?.reason);
            pump();
          },
        };
        signal?.addEventListener('abort', w.onAbort, { once: true });
        waiters.push(w);
        pump();
      });
    },
    observe(status, headers, retryAfterMs) {
      inFlight = Math.max(0, inFlight - 1);
      const t = clock.now();
      if (headers) readRemoteLimits(headers, t);
      if (status === 429) {
        rateLimited += 1;
        let pause: number;
        if (retryAfterMs !== null && retryAfterMs >= 0) {
          pause = retryAfterMs;
          unhintedInARow = 0;
        } else {
          pause = defaultPauseMs * 2 ** Math.min(unhintedInARow, 20);
          unhintedInARow += 1;
        }
        pause = Math.min(Math.max(pause, 0), maxPauseMs);
        const wasPaused = pausedUntil > t;
        if (!wasPaused) {
          // Multiplicative decrease, once per congestion event: the other 429s of the same
          // burst (requests that were already on their way) only extend the pause.
          refill(t);
          decreasedRate = Math.max(minRate, rateAt(t) / 2);
        }
        pausedUntil = Math.max(pausedUntil, t + pause);
        recoveryFrom = pausedUntil;
        tokens = Math.min(tokens, 0);
        lastRefill = Math.max(lastRefill, pausedUntil);
      } else {
        unhintedInARow = 0;
        if (status === 503 && retryAfterMs !== null && retryAfterMs > 0) {
          pausedUntil = Math.max(pausedUntil, t + Math.min(retryAfterMs, maxPauseMs));
        }
      }
      pump();
    },
    release() {
      inFlight = Math.max(0, inFlight - 1);
    },
    isHeld() {
      return holdUntil(clock.now()) > 0;
    },
    get pausedUntil() {
      const h = holdUntil(clock.now());
      return h > 0 ? h : null;
    },
    get currentRate() {
      return rateAt(clock.now());
    },
    configuredRate: configured,
    status() {
      const h = holdUntil(clock.now());
      return {
        configuredRate: configured,
        currentRate: rateAt(clock.now()),
        pausedUntil: h > 0 ? h : null,
        waiting: waiters.length,
        inFlight,
        rateLimited,
      };
    },
    close(reason = new Error('pacer closed')) {
      closed = { reason };
      if (timer) timer.abort();
      timer = null;
      for (const w of waiters.splice(0)) {
        w.signal?.removeEventListener('abort', w.onAbort);
        w.reject(reason);
      }
    },
  };
}

function positive(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * The smallest requests-per-second any policy allows. Forms: `10;w=1, 1000;w=3600` (draft 07)
 * and `"burst";q=10;w=1, "daily";q=1000;w=86400` (draft 08 and later).
 */
export function policyRate(value: string): number | null {
  let best: number | null = null;
  for (const item of value.split(',')) {
    const parts = item.split(';').map((p) => p.trim());
    let quota: number | null = null;
    let window: number | null = null;
    for (const p of parts) {
      const kv = /^([a-z]+)\s*=\s*"?(\d+(?:\.\d+)?)"?$/i.exec(p);
      if (kv) {
        const k = kv[1]!.toLowerCase();
        if (k === 'w') window = Number(kv[2]);
        else if (k === 'q') quota = Number(kv[2]);
      } else if (/^\d+$/.test(p)) quota = Number(p);
    }
    if (quota !== null && window !== null && window > 0) {
      const r = quota / window;
      best = best === null ? r : Math.min(best, r);
    }
  }
  return best;
}

/**
 * What the remote says is left, from the most specific headers it sent:
 * `X-RateLimit-Remaining` + `X-RateLimit-Reset` (Unix seconds, or delta seconds when small),
 * `RateLimit-Remaining` + `RateLimit-Reset` (delta seconds, drafts 00–06),
 * `RateLimit: limit=10, remaining=0, reset=3` (draft 07) or `RateLimit: "p";r=0;t=3` (draft 08+).
 * When several items are listed, the most restrictive one counts.
 */
export function remoteQuota(
  headers: HeaderGetter,
  nowMs: number,
): { remaining: number; resetAt: number | null } | null {
  const found: { remaining: number; resetAt: number | null }[] = [];
  const xRemaining = intOf(headers.get('x-ratelimit-remaining'));
  if (xRemaining !== null)
    found.push({ remaining: xRemaining, resetAt: resetTime(headers.get('x-ratelimit-reset'), nowMs) });
  const remaining = intOf(headers.get('ratelimit-remaining'));
  if (remaining !== null)
    found.push({ remaining, resetAt: resetTime(headers.get('ratelimit-reset'), nowMs, true) });
  const combined = headers.get('ratelimit');
  if (combined) {
    const r7 = /(?:^|[\s,;])remaining\s*=\s*(\d+)/i.exec(combined);
    const t7 = /(?:^|[\s,;])reset\s*=\s*(\d+)/i.exec(combined);
    if (r7) found.push({ remaining: Number(r7[1]), resetAt: t7 ? nowMs + Number(t7[1]) * 1000 : null });
    for (const item of combined.split(',')) {
      const r8 = /;\s*r\s*=\s*(\d+)/i.exec(item);
      const t8 = /;\s*t\s*=\s*(\d+)/i.exec(item);
      if (r8) found.push({ remaining: Number(r8[1]), resetAt: t8 ? nowMs + Number(t8[1]) * 1000 : null });
    }
  }
  if (found.length === 0) return null;
  let worst = found[0]!;
  for (const q of found) {
    if (
      q.remaining < worst.remaining ||
      (q.remaining === worst.remaining && (q.resetAt ?? 0) > (worst.resetAt ?? 0))
    )
      worst = q;
  }
  return worst;
}

function intOf(v: string | null): number | null {
  if (v === null) return null;
  const s = v.split(',')[0]!.trim();
  return /^\d+$/.test(s) ? Number(s) : null;
}

function resetTime(v: string | null, nowMs: number, alwaysDelta = false): number | null {
  const n = intOf(v);
  if (n === null) return null;
  // Unix seconds (GiftDesk, GitHub and most X-RateLimit servers) or delta seconds (IETF).
  if (!alwaysDelta && n > 1_000_000_000) return n * 1000;
  return nowMs + n * 1000;
}
