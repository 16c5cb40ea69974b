/**
 * A real HTTP proxy on 127.0.0.1 in front of a remote, that misbehaves on purpose. For each
 * request a rule (a function of its index, method, path and body — or a seeded random draw)
 * says what to do:
 *
 * - `forward`            pass it on (optionally after `delayMs`, and answering after `latencyMs` more;
 *                        `beforeAnswer` runs between the remote's answer and ours)
 * - `dropAfterCommit`    pass it on, wait for the remote's whole answer (it has committed),
 *                        then destroy the client's socket: applied, but the client cannot know
 * - `hangAfterCommit`    pass it on and never answer (the client's deadline fires): applied
 * - `resetBeforeForward` reset the client's connection without passing anything on: not applied,
 *                        though the client (which had sent its bytes) cannot know that either
 * - `hang`               never answer, never forward: not applied, the client times out
 * - `respond`            answer `status` itself (429 with or without Retry-After and body
 *                        `retryAfter`, 500, 503, …) — or, with `forward: true`, pass it on and
 *                        then answer that status instead of the remote's (applied, looks failed)
 *
 * With `rateLimit` it also enforces a rate itself (429 + Retry-After above N/s, ahead of the
 * rule). Every request is recorded with its arrival time and what was done.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createBuckets } from '../../electron/server/token-bucket.ts';
import { createRng } from './random.ts';

export type FaultAction =
  | { kind: 'forward'; delayMs?: number; latencyMs?: number; beforeAnswer?: () => void | Promise<void> }
  | { kind: 'dropAfterCommit'; delayMs?: number }
  | { kind: 'hangAfterCommit' }
  | { kind: 'resetBeforeForward'; delayMs?: number }
  | { kind: 'hang' }
  | {
      kind: 'respond';
      status: number;
      forward?: boolean;
      retryAfter?: string;
      bodyRetryAfter?: number;
      delayMs?: number;
      body?: string;
      headers?: Record<string, string>;
    };

export interface ProxiedRequest {
  index: number;
  method: string;
  /** Path and query as received. */
  path: string;
  body: string;
}

export type FaultRule = (req: ProxiedRequest) => FaultAction | Promise<FaultAction>;

export interface ProxyRecord extends ProxiedRequest {
  /** Date.now() when the request arrived. */
  at: number;
  action: FaultAction['kind'] | 'rateLimited';
  /** Whether the remote got it. */
  forwarded: boolean;
  /** The remote's status, when it was forwarded and answered. */
  upstreamStatus?: number;
  /** What the client was answered (undefined when the connection was dropped or hung). */
  status?: number;
  /** The remote's body, when it was forwarded and answered. */
  upstreamBody?: string;
  /** Date.now() when the proxy answered, dropped or reset (undefined while hanging). */
  doneAt?: number;
}

export interface FaultProxy {
  url: string;
  records: ProxyRecord[];
  setRule(rule: FaultRule): void;
  /** Requests that reached the remote (forwarded), optionally of one method and path prefix. */
  forwarded(method?: string, pathPrefix?: string): ProxyRecord[];
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  target: string;
  rule?: FaultRule;
  rateLimit?: { ratePerSecond: number; burst: number };
  /** Listen on this port (default: any free one), e.g. an address the app was told about while nothing answered there. */
  port?: number;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

export const forwardAll: FaultRule = () => ({ kind: 'forward' });

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(opts.target);
  let rule: FaultRule = opts.rule ?? forwardAll;
  const records: ProxyRecord[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const buckets = opts.rateLimit ? createBuckets(opts.rateLimit) : null;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;
  let closing = false;
  const current = new WeakMap<http.ServerResponse, ProxyRecord>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  function forward(
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers))
        if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
      headers.host = target.host;
      if (body.length > 0 || req.method === 'POST' || req.method === 'PUT')
        headers['content-length'] = String(body.length);
      const up = http.request(
        { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });
  }

  function send(
    res: http.ServerResponse,
    status: number,
    headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders,
    body: Buffer | string,
  ): void {
    const rec = current.get(res);
    if (rec) rec.doneAt = Date.now();
    if (res.destroyed || res.headersSent) return;
    const out: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
    out['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(status, out);
    res.end(body);
  }

  function errorJson(status: number, retryAfterSeconds?: number): string {
    const reason: Record<number, string> = {
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
    };
    return JSON.stringify({
      statusCode: status,
      error: reason[status] ?? 'Error',
      code: status === 429 ? 'rate_limited' : 'injected_fault',
      message: status === 429 ? 'Too many requests (fault proxy)' : `Injected ${status} (fault proxy)`,
      ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}),
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks)).catch(() => {
        if (!res.headersSent && !res.destroyed)
          send(res, 502, { 'content-type': 'application/json' }, errorJson(502));
        else req.socket.destroy();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const info: ProxiedRequest = {
      index: counter++,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: body.toString('utf8'),
    };
    const rec: ProxyRecord = { ...info, at: Date.now(), action: 'forward', forwarded: false };
    records.push(rec);
    current.set(res, rec);

    if (buckets) {
      const take = buckets.take('all');
      if (!take.allowed) {
        rec.action = 'rateLimited';
        rec.status = 429;
        send(
          res,
          429,
          { 'content-type': 'application/json', 'retry-after': String(take.retryAfter) },
          errorJson(429, take.retryAfter),
        );
        return;
      }
    }

    const action = await rule(info);
    rec.action = action.kind;
    const upstream = async () => {
      rec.forwarded = true;
      const r = await forward(req, body);
      rec.upstreamStatus = r.status;
      rec.upstreamBody = r.body.toString('utf8');
      return r;
    };
    switch (action.kind) {
      case 'forward': {
        await sleep(action.delayMs ?? 0);
        const r = await upstream();
        await sleep(action.latencyMs ?? 0);
        // e.g. kill -9 the client between the remote's commit and its answer
        if (action.beforeAnswer) await action.beforeAnswer();
        rec.status = r.status;
        send(res, r.status, r.headers, r.body);
        return;
      }
      case 'dropAfterCommit': {
        await sleep(action.delayMs ?? 0);
        await upstream();
        rec.doneAt = Date.now();
        req.socket.destroy();
        return;
      }
      case 'hangAfterCommit': {
        await upstream();
        return; // the socket stays open until the client gives up or the proxy closes
      }
      case 'resetBeforeForward': {
        await sleep(action.delayMs ?? 0);
        rec.doneAt = Date.now();
        req.socket.resetAndDestroy();
        return;
      }
      case 'hang':
        return;
      case 'respond': {
        await sleep(action.delayMs ?? 0);
        if (action.forward) await upstream();
        const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json', ...action.headers };
        if (action.retryAfter !== undefined) headers['retry-after'] = action.retryAfter;
        rec.status = action.status;
        send(res, action.status, headers, action.body ?? errorJson(action.status, action.bodyRetryAfter));
        return;
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    records,
    setRule(r) {
      rule = r;
    },
    forwarded(method, pathPrefix) {
      return records.filter(
        (r) =>
          r.forwarded && (!method || r.method === method) && (!pathPrefix || r.path.startsWith(pathPrefix)),
      );
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** Fault mixes for randomized runs. Each weight is relative; `forward` is the healthy path. */
export interface FaultMix {
  forward?: number;
  slow?: number;
  /** Forwarded, HQ commits, the client's socket is destroyed: applied, outcome unknown. */
  dropAfterCommit?: number;
  /** Reset before forwarding: not applied, outcome unknown. */
  resetBeforeForward?: number;
  /** 500 from the proxy, not forwarded. */
  status500?: number;
  /** 500 after forwarding: HQ applied it, the client sees a server error. */
  status500AfterCommit?: number;
  /** 503 from the proxy, not forwarded. */
  status503?: number;
  /** 503 after forwarding: HQ applied it. */
  forwardThen503?: number;
  status429?: number;
  status429NoHint?: number;
  /** No answer until the client's deadline: half forwarded (applied), half not. Costs a whole deadline; keep rare. */
  hang?: number;
}

export type FaultKind = keyof FaultMix;

export const DEFAULT_FAULT_MIX: Required<FaultMix> = {
  forward: 70,
  slow: 4,
  dropAfterCommit: 6,
  resetBeforeForward: 5,
  status500: 3,
  status500AfterCommit: 0,
  status503: 3,
  forwardThen503: 4,
  status429: 3,
  status429NoHint: 2,
  hang: 0,
};

export interface SeededFaultOptions {
  maxLatencyMs?: number;
  retryAfterSeconds?: number;
}

/**
 * Seeded draws of a fault kind and its action: the same seed gives the same sequence of
 * draws. For rules that need to know what they drew (coverage counts, steering).
 */
export function seededFaultDraws(
  seed: number,
  mix: FaultMix = DEFAULT_FAULT_MIX,
  opts: SeededFaultOptions = {},
): () => { kind: FaultKind; action: FaultAction } {
  const rng = createRng(seed ^ 0x5eed);
  const weights = {
    ...Object.fromEntries(Object.keys(DEFAULT_FAULT_MIX).map((k) => [k, 0])),
    ...mix,
  } as Required<FaultMix>;
  const maxLatency = opts.maxLatencyMs ?? 30;
  const retryAfter = opts.retryAfterSeconds ?? 1;
  const actionOf = (k: FaultKind): FaultAction => {
    switch (k) {
      case 'forward':
        return { kind: 'forward' };
      case 'slow':
        return { kind: 'forward', delayMs: rng.int(0, maxLatency), latencyMs: rng.int(0, maxLatency) };
      case 'dropAfterCommit':
        return { kind: 'dropAfterCommit' };
      case 'resetBeforeForward':
        return { kind: 'resetBeforeForward' };
      case 'status500':
        return { kind: 'respond', status: 500 };
      case 'status500AfterCommit':
        return { kind: 'respond', status: 500, forward: true };
      case 'status503':
        return { kind: 'respond', status: 503 };
      case 'forwardThen503':
        return { kind: 'respond', status: 503, forward: true };
      case 'status429':
        return rng.chance(0.5)
          ? { kind: 'respond', status: 429, retryAfter: String(retryAfter) }
          : { kind: 'respond', status: 429, bodyRetryAfter: retryAfter };
      case 'status429NoHint':
        return { kind: 'respond', status: 429 };
      case 'hang':
        return rng.chance(0.5) ? { kind: 'hang' } : { kind: 'hangAfterCommit' };
    }
  };
  return () => {
    const kind = rng.weighted(weights);
    return { kind, action: actionOf(kind) };
  };
}

/**
 * A rule that draws each request's fate from a seeded generator: the same seed gives the
 * same sequence of faults for the same sequence of requests.
 */
export function seededFaults(
  seed: number,
  mix: FaultMix = DEFAULT_FAULT_MIX,
  opts: SeededFaultOptions = {},
): FaultRule {
  const draw = seededFaultDraws(seed, mix, opts);
  return () => draw().action;
}

/** Counts requests in every sliding window of `windowMs` and returns the largest count. */
export function maxInAnyWindow(times: readonly number[], windowMs = 1000): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while (t[hi]! - t[lo]! >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
