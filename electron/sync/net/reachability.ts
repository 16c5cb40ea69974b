/**
 * Whether HQ answers, from the requests themselves: every request to HQ (push, reconcile,
 * email match, pull) goes through a client wrapped here, and its answer is recorded on the
 * account's remote (sync_remotes: hq_answered_at, hq_failed_at + hq_failure, hq_refused_at).
 * The status (status.ts) turns those facts into what the badge says — never a guess from the
 * browser's own network flag or from a pass that sent nothing.
 *
 * What counts:
 * - answered: an HTTP status from 200 to 499 except 401/403 (HQ was reached and took the key;
 *   a 4xx about one record or a 429 is still an answer);
 * - refused: 401 or 403 (HQ refused the key);
 * - failed: no answer (refused connection, DNS, timeout, reset), a redirect (the address is
 *   not HQ's API) or a 5xx; a request we cancelled ourselves (shutdown) counts for nothing.
 * The failure is noted in a coordinator's words (connection-problem.ts), as the status shows it.
 *
 * Writes are light: one when the kind of answer changes, otherwise at most one every
 * NOTE_EVERY_MS per client (the times shown are then at most that late).
 */
import type { Db, Store } from '../../db/store.ts';
import { connectionProblem } from './connection-problem.ts';
import type { RemoteClient, RemoteResult } from './http-client.ts';
import { markStationRevoked } from '../remote/hub-remote.ts';

export type AnswerKind = 'answered' | 'refused' | 'failed';

/** "Online" = HQ answered within this window (and nothing failed since). */
export const ONLINE_WINDOW_MS = 120_000;
const NOTE_EVERY_MS = 5_000;

export function classifyAnswer(
  r: RemoteResult,
  baseUrl: string,
  remote: 'hq' | 'hub' = 'hq',
): { kind: AnswerKind; note: string | null } | null {
  if (r.networkError?.kind === 'aborted') return null;
  const s = r.status;
  // The note is the connection problem in a coordinator's words (connection-problem.ts).
  const problem = connectionProblem(r, baseUrl, remote);
  if (s === 401 || s === 403) return { kind: 'refused', note: problem?.sentence ?? null };
  if (problem) return { kind: 'failed', note: problem.sentence };
  if (s === undefined) return { kind: 'failed', note: 'no answer' };
  return { kind: 'answered', note: null };
}

/** Records one answer on the account's remote. */
export async function noteAnswer(
  trx: Db,
  accountId: string,
  kind: AnswerKind,
  at: string,
  note: string | null,
): Promise<void> {
  const patch =
    kind === 'answered'
      ? { hqAnsweredAt: at }
      : kind === 'refused'
        ? { hqRefusedAt: at, hqFailure: note }
        : { hqFailedAt: at, hqFailure: note };
  await trx.updateTable('syncRemotes').set(patch).where('accountId', '=', accountId).execute();
}

/**
 * The client, with every answer recorded for the account (see the top of this file); `remote`:
 * an event hub's failures are said of the event hub.
 */
export function recordingAnswers(
  store: Store,
  accountId: string,
  client: RemoteClient,
  clock: () => number = Date.now,
  remote: 'hq' | 'hub' = 'hq',
): RemoteClient {
  let lastKind: AnswerKind | null = null;
  let lastNoted = 0;
  return {
    get baseUrl() {
      return client.baseUrl;
    },
    get keyId() {
      return client.keyId;
    },
    get pacer() {
      return client.pacer;
    },
    get timeoutMs() {
      return client.timeoutMs;
    },
    async request(method, path, body, opts) {
      const r = await client.request(method, path, body, opts);
      // An event hub that removed this station says so on every request: it stops for good.
      if (r.status === 401 && r.error?.code === 'station_revoked') {
        const at = new Date(clock()).toISOString();
        await store.write((trx) => markStationRevoked(trx, accountId, at));
      }
      const c = classifyAnswer(r, client.baseUrl, remote);
      if (c) {
        const now = clock();
        if (c.kind !== lastKind || now - lastNoted >= NOTE_EVERY_MS) {
          lastKind = c.kind;
          lastNoted = now;
          await store.write((trx) => noteAnswer(trx, accountId, c.kind, new Date(now).toISOString(), c.note));
        }
      }
      return r;
    },
  };
}

export type ConnectionState = 'online' | 'quiet' | 'offline' | 'never' | 'paused' | 'refused';

export interface ConnectionFacts {
  hqAnsweredAt: string | null;
  hqFailedAt: string | null;
  hqFailure: string | null;
  hqRefusedAt: string | null;
  pausedUntil: string | null;
}

/**
 * What is true of HQ now, in order: the key was refused (HQ's last word to us); HQ asked us to
 * wait; the last request failed (offline, or never reached if HQ never answered); no answer
 * yet (never reached); an answer within the window (online); an older answer and nothing since
 * (quiet: nothing needed sending, so nothing asked HQ).
 */
export function connectionState(f: ConnectionFacts, now: number): ConnectionState {
  const t = (iso: string | null) => (iso ? Date.parse(iso) : -Infinity);
  const answered = t(f.hqAnsweredAt);
  if (f.hqRefusedAt && t(f.hqRefusedAt) >= answered) return 'refused';
  if (f.pausedUntil && t(f.pausedUntil) > now) return 'paused';
  if (f.hqFailedAt && t(f.hqFailedAt) > answered) return f.hqAnsweredAt ? 'offline' : 'never';
  if (!f.hqAnsweredAt) return 'never';
  return now - answered <= ONLINE_WINDOW_MS ? 'online' : 'quiet';
}
