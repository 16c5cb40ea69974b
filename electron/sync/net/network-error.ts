/**
 * What a network failure was, and whether the request can have left (the client's answer says
 * so truthfully: http-client.ts, outcome.ts).
 *
 * Was it sent? Node's fetch (undici) does not report whether request bytes left, so the
 * rule is by error code, and every doubt counts as "sent":
 * - not sent: the request never got past the pacer or the caller's abort before fetch; a
 *   base URL or port fetch refuses; ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ENETDOWN,
 *   EHOSTDOWN, EADDRNOTAVAIL (no connection was made); ENOTFOUND / EAI_* (DNS);
 *   UND_ERR_CONNECT_TIMEOUT (the TCP connect itself timed out); TLS certificate and
 *   handshake errors (the request is written only after the handshake).
 * - sent: everything else — ECONNRESET, EPIPE, "other side closed" (UND_ERR_SOCKET), our own
 *   deadline (it cannot tell connect from wait), headers/body timeouts, unknown errors.
 * A stale keep-alive socket that the server closed as we wrote therefore reads as
 * "sent, reset": unknown, and the engine reconciles. Cheap and safe; the opposite error
 * (calling a sent POST "not sent") would double a gift.
 */
import type { NetworkErrorKind } from './outcome.ts';

export interface NetworkError {
  kind: NetworkErrorKind;
  /** The system or undici error code, when there was one (ECONNREFUSED, UND_ERR_SOCKET, …). */
  code?: string;
  message: string;
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EAI_NODATA',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What a network failure was, and whether it can have left: by the error's code (the rule above). */
export function describeNetworkError(err: unknown): { sent: boolean; error: NetworkError } {
  const cause = errorCause(err);
  const code = errorCode(cause) ?? errorCode(err);
  const msg =
    (cause instanceof Error ? cause.message : undefined) ??
    (err instanceof Error ? err.message : String(err));
  if (code && NOT_SENT_CODES.has(code)) {
    const kind: NetworkErrorKind =
      code.startsWith('EAI_') || code === 'ENOTFOUND'
        ? 'dns'
        : code === 'UND_ERR_CONNECT_TIMEOUT'
          ? 'timeout'
          : /CERT|TLS/.test(code)
            ? 'other'
            : 'refused';
    return { sent: false, error: { kind, code, message: msg } };
  }
  if (msg === 'bad port' || (code && code.startsWith('ERR_TLS')) || (code && code.startsWith('ERR_SSL'))) {
    return { sent: false, error: { kind: 'other', ...(code ? { code } : {}), message: msg } };
  }
  const kind: NetworkErrorKind =
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED' ||
    /terminated|other side closed|socket hang up/i.test(msg)
      ? 'reset'
      : code === 'ETIMEDOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
        ? 'timeout'
        : 'other';
  return { sent: true, error: { kind, ...(code ? { code } : {}), message: msg } };
}

function errorCause(err: unknown): unknown {
  let e = err;
  for (
    let i = 0;
    i < 4 && typeof e === 'object' && e !== null && 'cause' in e && (e as { cause?: unknown }).cause;
    i++
  )
    e = (e as { cause: unknown }).cause;
  return e;
}

function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e)) return undefined;
  const c = (e as { code: unknown }).code;
  return typeof c === 'string' ? c : undefined;
}
