/**
 * The typed API client: every call goes over HTTP to the same /api/v1 scripts use, and
 * every answer is parsed with the zod schema from shared/ that the server answers with, so
 * the renderer's types and the wire agree (a mismatch is an error, not a silent undefined).
 */
import type { z } from 'zod';
import type { AppSession } from '#shared/schemas/session.ts';
import { ApiError } from './errors.ts';

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions<S extends z.ZodType> {
  /** The response schema (2xx bodies are parsed with it). */
  schema: S;
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClient {
  readonly accountId: string;
  /** This session's API key id (never its secret). */
  readonly keyId: string;
  /** The data folder to give `giftdesk` commands (--data-dir), when the server said one. */
  readonly dataDir: string | null;
  request<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    opts: RequestOptions<S>,
  ): Promise<z.infer<S>>;
  /** A URL with this session's account for downloads the browser fetches itself is not possible (headers); use download(). */
  download(path: string, query?: Query): Promise<Blob>;
  /** Sends a raw body (e.g. a CSV file) and parses the answer. */
  upload<S extends z.ZodType>(
    path: string,
    body: Blob | string,
    contentType: string,
    opts: { schema: S; query?: Query },
  ): Promise<z.infer<S>>;
}

export interface ClientOptions {
  session: AppSession;
  /** Origin of the API; '' = this page's own origin. */
  baseUrl?: string;
  /** Called when the server says the session's key is no longer valid (ended or idle too long). */
  onUnauthorized?: () => void;
  /** Told after each request whether the server answered at all (./server-reach.ts). */
  onReach?: (answered: boolean) => void;
}

function buildUrl(base: string, path: string, query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${base}/api/v1${path}${qs ? `?${qs}` : ''}`;
}

export function createApiClient(opts: ClientOptions): ApiClient {
  const base = opts.baseUrl ?? '';
  const { accountId, keyId, secret } = opts.session;
  const auth = { 'X-API-Key': keyId, Authorization: `Bearer ${secret}` };

  async function send(
    method: string,
    url: string,
    init: { body?: BodyInit; contentType?: string; signal?: AbortSignal },
  ): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          ...auth,
          Accept: 'application/json',
          ...(init.contentType ? { 'Content-Type': init.contentType } : {}),
        },
        body: init.body,
        signal: init.signal,
        cache: 'no-store',
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      opts.onReach?.(false);
      throw new ApiError(
        0,
        'network',
        'GiftDesk’s server is not answering. Nothing was lost on this screen; try again in a moment.',
      );
    }
    opts.onReach?.(true);
    if (!res.ok) {
      const body: unknown = await res.json().catch(() => null);
      const error = ApiError.fromBody(res.status, body);
      if (res.status === 401) opts.onUnauthorized?.();
      throw error;
    }
    return res;
  }

  async function parse<S extends z.ZodType>(res: Response, schema: S): Promise<z.infer<S>> {
    const body: unknown = await res.json().catch(() => null);
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new ApiError(
        0,
        'bad_response',
        `The server's answer to ${res.url} did not have the expected shape`,
      );
    return parsed.data;
  }

  return {
    accountId,
    keyId,
    dataDir: opts.session.dataDir ?? null,
    async request(method, path, o) {
      const withAccount = method === 'GET' || method === 'DELETE';
      const query = withAccount ? { accountId, ...o.query } : o.query;
      const body =
        o.body === undefined
          ? undefined
          : JSON.stringify(
              method === 'PUT' || o.body === null || typeof o.body !== 'object'
                ? o.body
                : { accountId, ...o.body },
            );
      const res = await send(method, buildUrl(base, path, query), {
        body,
        contentType: body === undefined ? undefined : 'application/json',
        signal: o.signal,
      });
      return parse(res, o.schema);
    },
    async download(path, query) {
      const res = await send('GET', buildUrl(base, path, { accountId, ...query }), {});
      return res.blob();
    },
    async upload(path, body, contentType, o) {
      const res = await send('POST', buildUrl(base, path, { accountId, ...o.query }), { body, contentType });
      return parse(res, o.schema);
    },
  };
}
