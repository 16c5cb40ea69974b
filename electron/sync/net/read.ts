/**
 * Reads from HQ for pull, email match and link checks: a GET through the remote's client (and
 * so its pacer), retried on its own when the failure is passing (429, 5xx, network) with the
 * engine's backoff, answered at once when it is not (any other 4xx). Reads change nothing at
 * HQ, so retrying them is always safe.
 */
import { backoffDelay } from './backoff.ts';
import { type Clock, systemClock } from './clock.ts';
import { connectionProblem } from './connection-problem.ts';
import { describeResult, type RemoteClient, type RemoteResult } from './http-client.ts';

/** What a read needs of the client (tests and the engine pass a RemoteClient; its address words a failure). */
export type RemoteReader = Pick<RemoteClient, 'request'> & { readonly baseUrl?: string };

/** A failed read's `problem`: the connection's failure in a coordinator's words (connection-problem.ts). */
export type ReadResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status?: number; body?: unknown; message: string; attempts: number; problem?: string };

export interface ReadOptions {
  /** Attempts in all before giving up on a passing failure (default 4). */
  attempts?: number;
  clock?: Clock;
  signal?: AbortSignal;
  /** Backoff base for these reads (default 500 ms), capped at 10 s. */
  baseMs?: number;
}

function messageOf(r: RemoteResult): string {
  if (r.error) return r.error.message;
  if (r.networkError) return `could not reach HQ (${describeResult(r)})`;
  return describeResult(r);
}

/** A failed read as one line for the user: status and HQ's own message. */
export function remoteMessage(r: ReadResult): string {
  if (r.ok) return `HTTP ${r.status}`;
  return r.status !== undefined && !r.message.includes(String(r.status))
    ? `${r.status}: ${r.message}`
    : r.message;
}

/** GET `path` (under {base_url}/api/v1) with `query`, and its JSON body. */
export async function getJson(
  remote: RemoteReader,
  path: string,
  query: Record<string, string | number | undefined>,
  opts: ReadOptions = {},
): Promise<ReadResult> {
  const clock = opts.clock ?? systemClock;
  const max = Math.max(1, opts.attempts ?? 4);
  let last: RemoteResult | undefined;
  for (let attempt = 0; attempt < max; attempt++) {
    if (opts.signal?.aborted) break;
    const r = await remote.request('GET', path, undefined, { query, signal: opts.signal });
    last = r;
    if (r.outcome === 'applied' && r.status !== undefined && r.status >= 200 && r.status < 300)
      return { ok: true, status: r.status, body: r.body };
    const passing = r.status === undefined || r.status === 429 || r.status >= 500;
    if (!passing || attempt === max - 1) break;
    const wait = r.retryAfterMs ?? backoffDelay(attempt, { baseMs: opts.baseMs ?? 500, capMs: 10_000 });
    try {
      await clock.sleep(wait, opts.signal);
    } catch {
      break;
    }
  }
  const r = last;
  if (!r) return { ok: false, message: 'cancelled', attempts: 0 };
  const problem = connectionProblem(r, remote.baseUrl ?? '');
  return {
    ok: false,
    status: r.status,
    body: r.body,
    message: messageOf(r),
    attempts: max,
    ...(problem ? { problem: problem.sentence } : {}),
  };
}
