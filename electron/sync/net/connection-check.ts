/**
 * Tries HQ's address and key before sync settings are saved ("Set up sync"): one cheap
 * authenticated read — GET /contacts?accountId=<HQ account>&limit=1, a spec route every HQ
 * has — with the typed key, a short deadline and a pacer of its own (one request; the
 * engine's pacer is not touched). What is wrong is said in connection-problem.ts's words,
 * with the field to check:
 * - HQ unreachable, a redirect, a 5xx → that sentence, at the address;
 * - 401 → the key id or secret; 403 → the HQ account id;
 * - 404 → the address answers but has no GiftDesk API under it;
 * - any other 4xx → HQ's own message, at the HQ account id (the only value the read sends);
 * - 2xx or 429 (HQ answered and is busy) → fine.
 */
import { connectionProblem } from './connection-problem.ts';
import { createRemoteClient } from './http-client.ts';
import { createPacer } from './pacer.ts';

export type CheckedField = 'baseUrl' | 'keyId' | 'secret' | 'remoteAccountId';

export type ConnectionCheck =
  { ok: true } | { ok: false; field: CheckedField; problem: string; reachable: boolean };

/** The deadline of the one read: long enough for a slow venue network, short enough to wait for. */
export const CHECK_TIMEOUT_MS = 10_000;

export async function checkConnection(
  target: { baseUrl: string; keyId: string; secret: string; remoteAccountId: string },
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<ConnectionCheck> {
  const client = createRemoteClient({
    baseUrl: target.baseUrl,
    keyId: target.keyId,
    secret: target.secret,
    pacer: createPacer({ ratePerSecond: 5 }),
    timeoutMs,
  });
  const r = await client.request('GET', '/contacts', undefined, {
    query: { accountId: target.remoteAccountId, limit: 1 },
  });
  const s = r.status;
  if (s !== undefined && ((s >= 200 && s < 300 && !r.networkError) || s === 429)) return { ok: true };
  const problem = connectionProblem(r, target.baseUrl);
  if (problem)
    return {
      ok: false,
      field: problem.field ?? 'baseUrl',
      problem: problem.sentence,
      reachable: problem.kind === 'key',
    };
  if (s === 404)
    return {
      ok: false,
      field: 'baseUrl',
      problem: `The address ${target.baseUrl} answers, but has no HQ API under it (GET /api/v1/contacts was not found). Check the HQ address: it is HQ's base address, e.g. https://hq.example.org.`,
      reachable: true,
    };
  return {
    ok: false,
    field: 'remoteAccountId',
    problem: `HQ did not accept the HQ account id (${s ?? 'no answer'}${r.error?.message ? `: "${r.error.message}"` : ''}). Check the HQ account id.`,
    reachable: true,
  };
}
