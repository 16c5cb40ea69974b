/**
 * The station's way to its event hub: HTTPS that accepts exactly one certificate, the one whose
 * SHA-256 fingerprint the station was given when it joined (pinned). The hub's certificate is
 * self-signed, so no authority vouches for it; the fingerprint does. The TLS connection is made
 * first and the certificate compared; only when it matches is the request written on that
 * connection. A mismatch destroys the socket before any request byte leaves, and fails with
 * code ERR_TLS_CERT_PINNED_MISMATCH (network-error.ts reads every ERR_TLS code as "not sent").
 *
 * One connection per request (`connection: close`): a station sends a few requests a second at
 * most, on the venue's network, and a fresh handshake is a fresh check of the certificate.
 * The answer's body is read whole before the Response is made, so a connection that breaks off
 * mid-answer fails the request (counted as sent: the hub may have acted on it).
 */
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { normaliseFingerprint } from '#shared/hub-link.ts';

export const PIN_MISMATCH_CODE = 'ERR_TLS_CERT_PINNED_MISMATCH';
export const PIN_MISMATCH_MESSAGE =
  'The hub’s certificate does not match the fingerprint this station was given';

/** The error of a connection whose certificate is not the pinned one. */
export class PinMismatchError extends Error {
  readonly code = PIN_MISMATCH_CODE;
  constructor() {
    super(PIN_MISMATCH_MESSAGE);
    this.name = 'PinMismatchError';
  }
}

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  redirect?: 'manual';
}

/** What the client calls to send a request: the global fetch, or a pinned one. */
export type FetchFn = (url: URL, init: FetchInit) => Promise<Response>;

/** A TLS connection to the URL's host whose certificate has the pinned fingerprint. */
function connectPinned(url: URL, pin: string, signal: AbortSignal | undefined): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('Cancelled before connecting'));
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      ...(net.isIP(host) ? {} : { servername: host }),
      // No authority signs a hub's certificate: the fingerprint below is the whole check.
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const cleanup = () => {
      signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
    };
    const onAbort = () => {
      cleanup();
      socket.destroy();
      reject(signal?.reason instanceof Error ? signal.reason : new Error('Cancelled while connecting'));
    };
    const onError = (err: Error) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      cleanup();
      const cert = socket.getPeerX509Certificate();
      const presented = cert ? normaliseFingerprint(cert.fingerprint256) : null;
      if (presented === null || presented !== pin) {
        socket.destroy();
        reject(new PinMismatchError());
        return;
      }
      resolve(socket);
    });
  });
}

/** The answer's headers as a Headers object (repeated headers kept). */
function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  return headers;
}

/** Sends one request on a connection already checked, and reads its answer whole. */
function exchange(socket: tls.TLSSocket, url: URL, init: FetchInit): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const headers: Record<string, string> = { ...init.headers, host: url.host, connection: 'close' };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    const req = http.request({
      createConnection: () => socket,
      method: init.method,
      path: `${url.pathname}${url.search}`,
      headers,
      ...(init.signal ? { signal: init.signal } : {}),
    });
    req.once('error', (err) => {
      socket.destroy();
      reject(err);
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', reject);
      res.once('aborted', () => reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })));
      res.once('end', () => {
        socket.destroy();
        const status = res.statusCode ?? 502;
        const empty = [204, 205, 304].includes(status) || init.method === 'HEAD';
        try {
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), { status, headers: toHeaders(res.headers) }),
          );
        } catch (err) {
          reject(err);
        }
      });
    });
    req.end(init.body);
  });
}

/**
 * A fetch for one hub: every request connects anew and goes only to a certificate whose
 * fingerprint is `fingerprint` (any case, with or without colons).
 */
export function pinnedFetch(fingerprint: string): FetchFn {
  const pin = normaliseFingerprint(fingerprint);
  if (pin === null) throw new Error('The pinned fingerprint is not sha256: and 64 hex digits');
  return async (url, init) => {
    if (url.protocol !== 'https:')
      throw Object.assign(new Error('An event hub is reached over https only'), { code: 'ERR_TLS_REQUIRED' });
    const socket = await connectPinned(url, pin, init.signal);
    return exchange(socket, url, init);
  };
}
