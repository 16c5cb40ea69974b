/**
 * What is wrong with the connection to HQ, in words a coordinator can act on: the one place
 * that turns a request's failure (outcome.ts's network kinds, a redirect, 401/403, 408, 5xx)
 * into a sentence. The status shows it once, at the top of Settings → Sync; a record that
 * waits because of it is not blamed for it. Anything else — a 2xx, a 429 (HQ's pause), a 4xx
 * about one record's data — is no connection problem (null): that record's own message says it.
 *
 * - `address`: nothing could be sent there (a port browsers refuse, a name that does not
 *   resolve, nothing listening, a certificate refused, a redirect: not HQ's API);
 * - `network`: this laptop has no route, or HQ did not answer in time or broke off;
 * - `key`: HQ refused the key (401) or its account (403);
 * - `hq`: HQ answered with a failure of its own (5xx).
 */
import type { RemoteResult } from './http-client.ts';
import { PIN_MISMATCH_CODE, PIN_MISMATCH_MESSAGE } from './pinned-fetch.ts';

export type ConnectionProblemKind = 'address' | 'network' | 'key' | 'hq';

export interface ConnectionProblem {
  kind: ConnectionProblemKind;
  /** The field of Settings → Sync to check, when one is to blame. */
  field: 'baseUrl' | 'secret' | 'remoteAccountId' | null;
  sentence: string;
}

const CHECK_ADDRESS = 'Check the HQ address in the sync settings.';

/** The address as a person typed it: without the /api/v1 the client adds. */
export function shownAddress(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

function portOf(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).port || null;
  } catch {
    return null;
  }
}

/** Why nothing answered, from the network error's kind and code. */
function networkReason(
  e: NonNullable<RemoteResult['networkError']>,
  baseUrl: string,
): { kind: ConnectionProblemKind; reason: string; fix: string } {
  const code = e.code ?? '';
  if (e.message === 'bad port') {
    const port = portOf(baseUrl);
    return {
      kind: 'address',
      reason: `the address's port${port ? ` (${port})` : ''} is not valid for a web address (it is reserved for other services)`,
      fix: CHECK_ADDRESS,
    };
  }
  if (e.kind === 'dns')
    return {
      kind: code === 'EAI_AGAIN' ? 'network' : 'address',
      reason:
        code === 'EAI_AGAIN'
          ? 'the name in the address could not be looked up (is this laptop on the internet?)'
          : 'no server has the name in the address',
      fix:
        code === 'EAI_AGAIN' ? 'Check the network, or the HQ address in the sync settings.' : CHECK_ADDRESS,
    };
  if (code === 'ECONNREFUSED')
    return {
      kind: 'address',
      reason: 'nothing answers at that address and port (the connection was refused)',
      fix: `${CHECK_ADDRESS} If it is right, HQ may be down.`,
    };
  if (['ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL'].includes(code))
    return {
      kind: 'network',
      reason: 'this laptop has no network route to it',
      fix: 'Check the network (Wi-Fi or cable); everything waits here until HQ answers.',
    };
  if (/CERT|TLS|SSL/.test(code) || /certificate|tls|ssl/i.test(e.message))
    return {
      kind: 'address',
      reason: "HQ's security certificate was not accepted",
      fix: `${CHECK_ADDRESS} If it is right, HQ's certificate needs fixing at HQ.`,
    };
  if (e.kind === 'timeout')
    return {
      kind: 'network',
      reason: 'HQ did not answer in time',
      fix: 'The network may be slow or down; everything waits here and is tried again.',
    };
  if (e.kind === 'reset')
    return {
      kind: 'network',
      reason: 'the connection broke off before HQ answered',
      fix: 'The network may be unsteady; everything waits here and is tried again.',
    };
  return {
    kind: 'address',
    reason: 'the connection could not be made',
    fix: `${CHECK_ADDRESS} If it is right, check the network.`,
  };
}

/** HQ's own words after ours, when it gave any. */
function hqSaid(r: Pick<RemoteResult, 'error'>): string {
  return r.error?.message ? ` HQ said: "${r.error.message}"` : '';
}

/**
 * The connection problem a request's result shows, or null when it shows none (see the top).
 * At a station (`remote` 'hub') the same sentences are said of the event hub, and a station the
 * hub removed is told the hub's own sentence.
 */
export function connectionProblem(
  r: Pick<RemoteResult, 'status' | 'networkError' | 'error'>,
  baseUrl: string,
  remote: 'hq' | 'hub' = 'hq',
): ConnectionProblem | null {
  const p = hqProblem(r, baseUrl);
  if (remote === 'hq' || p === null) return p;
  if (r.status === 401 && r.error?.code === 'station_revoked')
    return { kind: 'key', field: null, sentence: r.error.message };
  return { ...p, sentence: saidOfTheHub(p.sentence) };
}

/** An HQ sentence said of the event hub: "HQ" becomes "the event hub" (capitalised where a sentence starts). */
function saidOfTheHub(sentence: string): string {
  return sentence
    .replace(/\b[Tt]he HQ\b/g, 'the event hub')
    .replace(/\bHQ's\b/g, "the event hub's")
    .replace(/\bHQ\b/g, 'the event hub')
    .replace(/(^|[.!?]\s+|")the event hub/g, (_m, lead: string) => `${lead}The event hub`);
}

function hqProblem(
  r: Pick<RemoteResult, 'status' | 'networkError' | 'error'>,
  baseUrl: string,
): ConnectionProblem | null {
  const address = shownAddress(baseUrl);
  const at = address ? ` at ${address}` : '';
  const s = r.status;
  if (s === undefined) {
    const e = r.networkError;
    if (!e || e.kind === 'aborted') return null;
    if (e.code === PIN_MISMATCH_CODE)
      return {
        kind: 'address',
        field: 'baseUrl',
        sentence: `${PIN_MISMATCH_MESSAGE}${at}: nothing was sent to it. Check the hub's address, or join the event again with the fingerprint the hub shows.`,
      };
    const { kind, reason, fix } = networkReason(e, baseUrl);
    return {
      kind,
      field: kind === 'address' ? 'baseUrl' : null,
      sentence: `GiftDesk cannot reach HQ${at}: ${reason}. ${fix}`,
    };
  }
  if (s === 401)
    return {
      kind: 'key',
      field: 'secret',
      sentence: `HQ refused the API key (401): the key id or secret is wrong, or the key was revoked. Enter a current key in the sync settings.${hqSaid(r)}`,
    };
  if (s === 403)
    return {
      kind: 'key',
      field: 'remoteAccountId',
      sentence: `HQ refused the API key (403): the key is not for this HQ account. Check the HQ account id in the sync settings, or ask HQ for a key of that account.${hqSaid(r)}`,
    };
  if (s >= 300 && s < 400)
    return {
      kind: 'address',
      field: 'baseUrl',
      sentence: `GiftDesk cannot reach HQ${at}: the address answers with a redirect (${s}), so it is not HQ's API. ${CHECK_ADDRESS}`,
    };
  if (s === 408)
    return {
      kind: 'network',
      field: null,
      sentence: `GiftDesk cannot reach HQ${at}: HQ did not get the request in time (408). Everything waits here and is tried again.`,
    };
  if (s >= 500 || s < 200)
    return {
      kind: 'hq',
      field: null,
      sentence: `HQ${at} is failing: it answered ${s}${r.error?.message ? ` ("${r.error.message}")` : ''}. Everything waits here and is tried again; if it lasts, tell HQ.`,
    };
  if (s >= 200 && s < 300 && r.networkError)
    return {
      kind: 'network',
      field: null,
      sentence: `GiftDesk cannot reach HQ${at}: the answer broke off before it was read whole. Everything waits here and is tried again.`,
    };
  return null;
}
