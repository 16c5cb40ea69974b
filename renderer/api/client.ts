/**
 * The typed API client: every call goes over HTTP to the same /api/v1 scripts use, and
 * every answer is parsed with the zod schema from shared/ that the server answers with, so
 * the renderer's types and the wire agree (a mismatch is an error, not a silent undefined).
 * No request waits for ever: a server that does not answer in time is an ApiError ('timeout')
 * like any other failure, so a search or a save never spins with nothing said.
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
  /** 'long': the server answers only once HQ has (Timeouts.longMs); else Timeouts.ordinaryMs. */
  wait?: 'ordinary' | 'long';
}

/**
 * How long the client waits for the server's whole answer before it gives up and says so.
 * An upload or a download (an import's file, an export) waits as long as it takes: its time
 * is its size's.
 */
export interface Timeouts {
  /** A search, a list, a save: GiftDesk's own server, on this machine, answers these at once. */
  ordinaryMs: number;
  /** A sync pass, a pull started, a link, HQ's lists, HQ settings tested: HQ answers first. */
  longMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { ordinaryMs: 30_000, longMs: 10 * 60_000 };

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
  /** download(), with the answer's headers (a preview's counts travel in them). */
  downloadWithHeaders(path: string, query?: Query): Promise<{ blob: Blob; headers: Headers }>;
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
  /** Told when a request that writes (not a GET) leaves (./live-refresh.ts pauses meanwhile). */
  onWrite?: () => void;
  /** DEFAULT_TIMEOUTS unless given (tests give short ones). */
  timeouts?: Partial<Timeouts>;
}

// Spread in, not written in the literal: Node's fetch types (the unit tests compile this file
// with them) do not list `cache`; the browser's fetch honours it.
const NO_STORE = { cache: 'no-store' } as const;

interface SendInit {
  body?: Blob | string;
  contentType?: string;
  signal?: AbortSignal;
}

/** A wait in words: "30 seconds", "10 minutes". */
function waitInWords(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} minutes`;
  if (ms >= 2_000) return `${Math.round(ms / 1_000)} seconds`;
  return `${ms} ms`;
}

/** No answer in time: a read is simply not done; a write may or may not have gone through. */
function timedOut(method: string, ms: number): ApiError {
  const late = `GiftDesk’s server did not answer within ${waitInWords(ms)}`;
  return new ApiError(
    0,
    'timeout',
    method === 'GET'
      ? `${late}. Nothing was lost on this screen; try again in a moment.`
      : `${late}, so it is not known whether this went through: check before trying again. Nothing typed here is lost.`,
  );
}

/** The answer's JSON, or null when it has none; an abort (the caller's or the deadline's) is thrown. */
async function readJson(res: Response, signal: AbortSignal | undefined): Promise<unknown> {
  try {
    return (await res.json()) as unknown;
  } catch (err) {
    if (signal?.aborted) throw err;
    return null;
  }
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

  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };

  /** Sends the request; a failure to reach the server is an ApiError, an abort is thrown as is. */
  async function send(method: string, url: string, init: SendInit): Promise<Response> {
    if (method !== 'GET') opts.onWrite?.();
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
        ...NO_STORE,
      });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      opts.onReach?.(false);
      throw new ApiError(
        0,
        'network',
        'GiftDesk’s server is not answering. Nothing was lost on this screen; try again in a moment.',
      );
    }
    opts.onReach?.(true);
    if (!res.ok) {
      const body = await readJson(res, init.signal);
      const error = ApiError.fromBody(res.status, body);
      if (res.status === 401) opts.onUnauthorized?.();
      throw error;
    }
    return res;
  }

  /**
   * The request and its answer, read by `read`, within `timeoutMs` (null: as long as it takes).
   * Past it the request is cancelled and the server counted as not answering.
   */
  async function exchange<T>(
    method: string,
    url: string,
    init: SendInit & { timeoutMs: number | null },
    read: (res: Response, signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T> {
    const deadline = init.timeoutMs === null ? null : AbortSignal.timeout(init.timeoutMs);
    const signal =
      deadline && init.signal ? AbortSignal.any([init.signal, deadline]) : (deadline ?? init.signal);
    try {
      return await read(await send(method, url, { ...init, signal }), signal);
    } catch (err) {
      if (init.timeoutMs === null || !deadline?.aborted || init.signal?.aborted) throw err;
      opts.onReach?.(false);
      throw timedOut(method, init.timeoutMs);
    }
  }

  function parser<S extends z.ZodType>(schema: S) {
    return async (res: Response, signal: AbortSignal | undefined): Promise<z.infer<S>> => {
      const parsed = schema.safeParse(await readJson(res, signal));
      if (!parsed.success)
        throw new ApiError(
          0,
          'bad_response',
          `The server's answer to ${res.url} did not have the expected shape`,
        );
      return parsed.data;
    };
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
      return exchange(
        method,
        buildUrl(base, path, query),
        {
          body,
          contentType: body === undefined ? undefined : 'application/json',
          signal: o.signal,
          timeoutMs: o.wait === 'long' ? timeouts.longMs : timeouts.ordinaryMs,
        },
        parser(o.schema),
      );
    },
    download(path, query) {
      return exchange('GET', buildUrl(base, path, { accountId, ...query }), { timeoutMs: null }, (res) =>
        res.blob(),
      );
    },
    downloadWithHeaders(path, query) {
      return exchange(
        'GET',
        buildUrl(base, path, { accountId, ...query }),
        { timeoutMs: null },
        async (res) => ({
          blob: await res.blob(),
          headers: res.headers,
        }),
      );
    },
    upload(path, body, contentType, o) {
      return exchange(
        'POST',
        buildUrl(base, path, { accountId, ...o.query }),
        { body, contentType, timeoutMs: null },
        parser(o.schema),
      );
    },
  };
}
