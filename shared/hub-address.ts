/**
 * What a person gives a station to join an event: the hub's address, or the join link its QR
 * code carries (hub-link.ts makes it; the fingerprint in its one stored form). Used by the
 * station's join (CLI and route) and by Settings → Event, so both read a link the same way.
 */

import { normaliseFingerprint, normalisePairingCode } from './hub-link.ts';

export interface HubAddress {
  /** The hub's address: `https://H:PORT` (no path, no hash). */
  url: string;
  code: string | null;
  fingerprint: string | null;
}

/** The code and fingerprint of a link's `code=…&fingerprint=…` part; a problem when the fingerprint is none. */
function linkParams(
  params: URLSearchParams,
): { code: string | null; fingerprint: string | null } | { problem: string } {
  const code = params.get('code')?.trim() || null;
  const fp = params.get('fingerprint');
  if (!fp) return { code, fingerprint: null };
  const fingerprint = normaliseFingerprint(fp);
  if (!fingerprint) return { problem: 'carries a fingerprint that is not sha256: and 64 hex digits' };
  return { code, fingerprint };
}

/**
 * Reads what a person gives to join an event: the hub's address (`https://H:PORT`), or the
 * join link its QR code carries — `https://H:PORT/join#code=…&fingerprint=…`, or
 * `https://H:PORT/#join?code=…&fingerprint=…` — which gives the code and fingerprint too.
 * The address must be https (a hub speaks TLS only). The problem in words when it is none.
 */
export function parseHubAddress(raw: string): HubAddress | { problem: string } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { problem: 'must be the hub’s address (https://…) or its join link' };
  }
  if (u.protocol !== 'https:') return { problem: 'must start with https:// (an event hub speaks TLS only)' };
  const hash = u.hash.replace(/^#/, '');
  const path = u.pathname.replace(/\/+$/, '');
  let params: URLSearchParams | null = null;
  if (path === '/join') params = new URLSearchParams(hash);
  else if (hash.startsWith('join'))
    params = new URLSearchParams(hash.slice('join'.length).replace(/^\?/, ''));
  if (params === null) return { url: u.origin, code: null, fingerprint: null };
  const p = linkParams(params);
  return 'problem' in p ? p : { url: u.origin, ...p };
}

/** A join link's parts (the code in its stored form), or null when the text is not one (a plain address is not). */
export function parseJoinLink(link: string): { url: string; code: string; fingerprint: string } | null {
  const a = parseHubAddress(link);
  if ('problem' in a || !a.code || !a.fingerprint) return null;
  return { url: a.url, code: normalisePairingCode(a.code), fingerprint: a.fingerprint };
}
