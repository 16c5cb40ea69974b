/**
 * The one way the sync engine talks to a remote: `{baseUrl}/api/v1` with the spec's auth
 * headers, every request through the remote's Pacer, a deadline per request, and an answer
 * that says truthfully what happened (see outcome.ts). It never throws for anything the
 * network or the remote does; it never logs, returns or puts into an error message the secret.
 *
 * Whether a request can have left when the network failed is network-error.ts's rule.
 */
import { classifyOutcome, type Outcome } from './outcome.ts';
import { describeNetworkError, type NetworkError } from './network-error.ts';
import type { Pacer } from './pacer.ts';
import { parseRemoteError, type RemoteError } from './error-body.ts';
import { parseRetryAfter } from './retry-after.ts';
import type { FetchFn } from './pinned-fetch.ts';

export type { RemoteError } from './error-body.ts';

export interface RemoteClientOptions {
  /** The remote's base URL; requests go to `{baseUrl}/api/v1{path}` (a trailing `/api/v1` is accepted too). */
  baseUrl: string;
  keyId: string;
  secret: string;
  pacer: Pacer;
  /** Deadline for one request from the moment it leaves until its body is read (default 30 s). */
  timeoutMs?: number;
  /** How a request is sent: Node's fetch by default; an event hub's pinned one (pinned-fetch.ts). */
  fetch?: FetchFn;
}

export interface RequestOptions {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Cancels waiting for the pacer and the request itself (shutdown). */
  signal?: AbortSignal;
  /**
   * Runs after the pacer gave this request its turn and right before it leaves (e.g. record
   * "in flight" in the database). It runs again if a 429 paused the queue meanwhile (so it
   * may run more than once). If it throws, nothing is sent and the error propagates.
   */
  beforeSend?: () => void | Promise<void>;
}

export interface RemoteResult {
  outcome: Outcome;
  /** Whether request bytes may have reached the remote (network-error.ts has the rule). */
  sent: boolean;
  status?: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  body?: unknown;
  headers?: Headers;
  /** The remote's error, read from either error shape, for any non-2xx answer. */
  error?: RemoteError;
  /** How long the remote asked us to wait (429, 503), in ms. */
  retryAfterMs?: number;
  networkError?: NetworkError;
  /** Wall-clock ms when the request left (or would have): the start of a reconcile window. */
  sentAt: number;
}

export interface RemoteClient {
  readonly baseUrl: string;
  readonly keyId: string;
  readonly pacer: Pacer;
  /** The deadline of every request (ms): none waits longer for its answer. */
  readonly timeoutMs: number;
  request(method: string, path: string, body?: unknown, opts?: RequestOptions): Promise<RemoteResult>;
}

/** Normalises `https://hq.example.org/`, `…/api/v1` and `…/api/v1/` to the origin plus path prefix. */
export function apiRoot(baseUrl: string): string {
  const u = new URL(baseUrl);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`The remote URL must start with http:// or https:// (got ${u.protocol})`);
  u.search = '';
  u.hash = '';
  const p = u.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return `${u.origin}${p}/api/v1`;
}

/** A short human line for a result, for logs and the needs-attention list. */
export function describeResult(r: RemoteResult): string {
  if (r.error) return `${r.status}: ${r.error.message}`;
  if (r.networkError)
    return `${r.networkError.kind}${r.networkError.code ? ` (${r.networkError.code})` : ''}: ${r.networkError.message}`;
  return r.status !== undefined ? `${r.status}` : 'no answer';
}

type Redact = (s: string) => string;

const CANCELLED_BEFORE_SENT = 'Cancelled before the request was sent';

/** The request's URL (the API root, the path, the defined query parameters), auth headers and JSON body. */
function requestParts(
  root: string,
  keyId: string,
  secret: string,
  path: string,
  body: unknown,
  query: RequestOptions['query'],
): { url: URL; headers: Record<string, string>; payload: string | undefined } {
  const url = new URL(`${root}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {
    'x-api-key': keyId,
    authorization: `Bearer ${secret}`,
    accept: 'application/json',
  };
  let payload: string | undefined;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  return { url, headers, payload };
}

/**
 * Waits for the pacer's turn, with `beforeSend` run right before the request leaves. False when
 * the caller cancelled first (nothing sent; a turn taken is given back); an error of
 * `beforeSend` propagates.
 */
async function takeTurn(pacer: Pacer, ro: RequestOptions): Promise<boolean> {
  try {
    await pacer.acquire(ro.signal);
  } catch {
    return false;
  }
  try {
    // A 429 may have paused the queue after this request got its token: wait again, and run
    // beforeSend again after any wait, so the request leaves right after it (the engine
    // renews its lease there: lease.ts counts on every request leaving just after a renewal).
    for (;;) {
      if (ro.beforeSend) await ro.beforeSend();
      if (!pacer.isHeld()) break;
      pacer.release();
      await pacer.acquire(ro.signal);
    }
  } catch (err) {
    pacer.release();
    if (ro.signal?.aborted) return false;
    throw err;
  }
  return true;
}

interface Deadline {
  signal: AbortSignal;
  /** True when the deadline (not the caller) aborted the request. */
  timedOut(): boolean;
  /** The request is over: the timer and the listener on the caller's signal go. */
  done(): void;
}

/**
 * One controller per request, aborted by our deadline or by the caller's signal. (Not
 * AbortSignal.any: it leaves a listener on the caller's long-lived signal per request.)
 */
function requestDeadline(timeoutMs: number, caller: AbortSignal | undefined): Deadline {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException(`No complete answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  let timedOut = false;
  deadline.signal.addEventListener('abort', () => void (timedOut = !caller?.aborted), { once: true });
  const onCallerAbort = () => deadline.abort(caller?.reason);
  caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: deadline.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** The result of a request that got no answer: what failed, and whether it can have left. */
function noAnswer(
  err: unknown,
  timedOut: boolean,
  caller: AbortSignal | undefined,
  timeoutMs: number,
  sentAt: number,
  redact: Redact,
): RemoteResult {
  let described = describeNetworkError(err);
  if (timedOut)
    described = { sent: true, error: { kind: 'timeout', message: `No answer within ${timeoutMs} ms` } };
  else if (caller?.aborted)
    described = {
      sent: true,
      error: { kind: 'aborted', message: 'Cancelled while waiting for the answer' },
    };
  const networkError = { ...described.error, message: redact(described.error.message) };
  return {
    outcome: classifyOutcome({ sent: described.sent, error: described.error.kind }),
    sent: described.sent,
    networkError,
    sentAt,
  };
}

/**
 * The answer's body, parsed as JSON (else its text; undefined when empty), and what stopped its
 * reading, if anything: our deadline, the caller, or the network. The request is over after it.
 */
async function readAnswer(
  res: Response,
  deadline: Deadline,
  caller: AbortSignal | undefined,
  timeoutMs: number,
  redact: Redact,
): Promise<{ parsed: unknown; bodyError: NetworkError | undefined }> {
  let text = '';
  let bodyError: NetworkError | undefined;
  try {
    text = await res.text();
  } catch (err) {
    const d = describeNetworkError(err);
    bodyError = deadline.timedOut()
      ? { kind: 'timeout', message: `The answer did not finish within ${timeoutMs} ms` }
      : caller?.aborted
        ? { kind: 'aborted', message: 'Cancelled while reading the answer' }
        : { ...d.error, message: redact(d.error.message) };
  } finally {
    deadline.done();
  }
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { parsed, bodyError };
}

/** The result of an answered request (the pacer told what the answer says of HQ's pace). */
function answered(
  res: Response,
  { parsed, bodyError }: { parsed: unknown; bodyError: NetworkError | undefined },
  pacer: Pacer,
  sentAt: number,
  redact: Redact,
): RemoteResult {
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), parsed, Date.now());
  pacer.observe(res.status, res.headers, retryAfterMs);

  const result: RemoteResult = {
    outcome: classifyOutcome({
      sent: true,
      status: res.status,
      ...(bodyError ? { error: bodyError.kind } : {}),
    }),
    sent: true,
    status: res.status,
    headers: res.headers,
    sentAt,
  };
  if (parsed !== undefined) result.body = parsed;
  if (res.status < 200 || res.status >= 300) {
    const e = parseRemoteError(res.status, parsed, typeof parsed === 'string' ? parsed : '');
    result.error = { ...e, message: redact(e.message) };
  }
  if (retryAfterMs !== null) result.retryAfterMs = retryAfterMs;
  if (bodyError) result.networkError = bodyError;
  return result;
}

export function createRemoteClient(opts: RemoteClientOptions): RemoteClient {
  const root = apiRoot(opts.baseUrl);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const pacer = opts.pacer;
  // Kept in this closure only: never on the returned object, so printing or serialising the
  // client (or any result) cannot show it.
  const secret = opts.secret;
  const redact = (s: string) => (secret.length >= 4 ? s.split(secret).join('[redacted]') : s);
  const send: FetchFn = opts.fetch ?? ((u, init) => fetch(u, init));

  async function request(
    method: string,
    path: string,
    body?: unknown,
    ro: RequestOptions = {},
  ): Promise<RemoteResult> {
    const { url, headers, payload } = requestParts(root, opts.keyId, secret, path, body, ro.query);
    if (!(await takeTurn(pacer, ro)))
      return {
        outcome: 'notApplied',
        sent: false,
        networkError: { kind: 'aborted', message: redact(CANCELLED_BEFORE_SENT) },
        sentAt: Date.now(),
      };

    const deadline = requestDeadline(timeoutMs, ro.signal);
    const sentAt = Date.now();
    let res: Response;
    try {
      res = await send(url, { method, headers, body: payload, signal: deadline.signal, redirect: 'manual' });
    } catch (err) {
      deadline.done();
      pacer.release();
      return noAnswer(err, deadline.timedOut(), ro.signal, timeoutMs, sentAt, redact);
    }
    const answer = await readAnswer(res, deadline, ro.signal, timeoutMs, redact);
    return answered(res, answer, pacer, sentAt, redact);
  }

  return { baseUrl: root, keyId: opts.keyId, pacer, timeoutMs, request };
}
