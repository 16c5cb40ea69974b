/**
 * What every request passes before its route, as five plugins registered in this order on
 * the root instance (their onRequest hooks run in that order):
 *
 * 1. `keyCheck` — first refuses a path that is not written the one plain way (nonCanonicalPath,
 *    below: a 400 before anything else looks at it), then reads X-API-Key and the bearer secret
 *    of an /api/ request and checks them (one indexed read and a constant-time compare). No key
 *    is refused here; the result is kept on the request for the gates after it.

 * 2. `rateLimit` — a script's token bucket. A key's own bucket is charged only for requests
 *    that proved they hold it; everything else (no key, a made-up key id, a real key id with a
 *    wrong secret) is charged to the caller's address, so knowing a key's id is not enough to
 *    lock its holder out. The app's own session key (minted by this process for its window and
 *    working only in it) is not a script: no limit, once its secret checked out
 *    (docs/scripts.md, "The API in one minute"). An event station's key (on a hub) has a
 *    bucket sized for what a station does (`stationLimit`, below). Counted before the Host
 *    check, so every API answer (a refusal too) carries the rate headers.
 * 3. `hostCheck` — a request addressed to a non-loopback Host is refused (a web page in the
 *    user's browser cannot reach the server), unless the server was bound beyond loopback.
 * 4. `requireAuth` — an /api/ route outside the public ones needs a key that checked out: 401
 *    otherwise; the request's `auth` is set for the routes (scope.ts).
 * 5. `roleGate` — the key's role against the route's rule (route-rules.ts): 403
 *    `role_forbidden` naming the role and what it may not do. *
 * Every gate decides on the route the router matched (`request.routeOptions.url`, e.g.
 * `/api/v1/contacts/:id`), not on the path as sent: the router decodes what it matches, so a
 * gate reading the raw path could be told one thing while the router serves another. A path
 * that matched no route is decided on as sent (it is answered 404 or 401 anyway). Every matched
 * /api/ route needs a key unless it is one of PUBLIC_ROUTES.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { authenticateApiKey } from '../domain/accounts/index.ts';
import type { DomainContext } from '../domain/index.ts';
import { errorBody } from './errors.ts';
import { isLoopbackHost } from './hosts.ts';
import { isOwnRecord } from '../domain/donations/index.ts';
import { roleMay, ruleOf } from './route-rules.ts';
import { type Auth, volunteerOwner } from './scope.ts';
import type { Buckets } from './token-bucket.ts';

/** What keyCheck found: the key id sent (when well-formed) and, when its secret checked out, whose it is. */
export interface KeyCheck {
  isApi: boolean;
  /** The route the router matched (`/api/v1/contacts/:id`), or the path as sent when none matched. */
  path: string;
  keyId: string | null;
  verified: Awaited<ReturnType<typeof authenticateApiKey>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
    keyCheck: KeyCheck | null;
  }
}

// browser-session: trades a one-time token for a session (answers 404 unless the renderer plugin registered it).
// hub/join: a station pairing with an event hub has no key yet; its pairing code is the credential
// (its confirmation, hub/join/confirm, is sent with the new key: not public).
// sign-in and set-password: a person's email and password, or their one-time link, are the credential.
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  '/api/v1/openapi.json',
  '/api/v1/browser-session',
  '/api/v1/hub/join',
  '/api/v1/sign-in',
  '/api/v1/set-password',
]);
/** The API's documentation pages (the Swagger UI plugin's routes, all under it). */
const PUBLIC_DOCS = '/api/v1/docs';

/** Whether a route (or, matched by none, a path) is open without a key. */
export function isPublicRoute(route: string): boolean {
  return PUBLIC_ROUTES.has(route) || route === PUBLIC_DOCS || route.startsWith(`${PUBLIC_DOCS}/`);
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * Why a request's path is not written the one plain way, or null when it is: a percent-encoded
 * character that needs no encoding (`/%61pi/…` is `/api/…` to the router), or a `.`, `..` or
 * empty (`//`) segment. Such a path is refused before routing, so what the gates read and what
 * the router serves are one path. A trailing slash is allowed (the router ignores it); the query
 * string is not looked at.
 */
export function nonCanonicalPath(path: string): string | null {
  for (const m of path.matchAll(/%([0-9A-Fa-f]{2})/g)) {
    const ch = String.fromCharCode(parseInt(m[1]!, 16));
    if (UNRESERVED.test(ch)) return `has "${m[0]}" where "${ch}" belongs (write it unencoded)`;
  }
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg === '.' || seg === '..') return `has a "${seg}" segment`;
    if (seg === '' && i < segments.length - 1) return 'has an empty segment ("//")';
  }
  return null;
}

/** A plugin whose hooks apply to the whole server (Fastify's skip-override, what fastify-plugin sets). */
function global<O>(
  fn: (app: FastifyInstance, opts: O) => Promise<void>,
): FastifyPluginAsync<O & Record<never, never>> {
  const plugin = fn as FastifyPluginAsync<O & Record<never, never>>;
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}

/** `global` for the gates registered from other files (station-gate.ts). */
export { global as wholeServer };

const KEY_ID = /^gdk_[0-9A-Za-z]{10,40}$/;
const BEARER = /^Bearer [^\s]+$/i;

function checked(request: FastifyRequest): KeyCheck {
  // Set by keyCheck for every request; registered first, so always present after it.
  return request.keyCheck!;
}

export const keyCheck = global(async (app, opts: { ctx: DomainContext }) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('keyCheck', null);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
    const raw = request.url.split('?')[0] ?? '';
    const issue = nonCanonicalPath(raw);
    if (issue !== null) {
      request.keyCheck = { isApi: false, path: raw, keyId: null, verified: null };
      return reply
        .code(400)
        .send(
          errorBody(400, 'non_canonical_path', `The request (path) ${issue}; nothing was done`, [
            { field: '(path)', issue },
          ]),
        );
    }
    const route = request.routeOptions.url;
    const path = route ?? raw;
    // An API request by the route it matched, or by the path as sent: closed if either says so.
    const isApi = path.startsWith('/api/') || raw.startsWith('/api/');
    const keyHeader = request.headers['x-api-key'];
    const keyId = typeof keyHeader === 'string' && KEY_ID.test(keyHeader) ? keyHeader : null;
    const authz = request.headers.authorization;
    const secret = typeof authz === 'string' && BEARER.test(authz) ? authz.slice(7) : null;
    const verified = isApi && keyId && secret ? await authenticateApiKey(opts.ctx, keyId, secret) : null;
    request.keyCheck = { isApi, path, keyId, verified };
  });
});

/**
 * A station's key at a hub: what a station does at most, and still a bound. Its push alone
 * may go at its pace to the hub (20 a second, HUB_RATE in sync/remote/hub-remote.ts) while it
 * catches up after the hub was away; beside it the feed answers at most four times a second
 * (the hub gathers for 250 ms), more only while pages are full, and the report every few
 * seconds. Twice the default per-key limit (20 a second, a burst of 40) covers that; a server
 * given a higher limit keeps it for stations too.
 */
export function stationLimit(limit: { ratePerSecond: number; burst: number }) {
  return { ratePerSecond: Math.max(40, limit.ratePerSecond), burst: Math.max(80, limit.burst) };
}

export const rateLimit = global(
  async (
    app,
    opts: {
      buckets: Buckets;
      /** Buckets for event stations' keys, and whether a key is one (a hub only). */
      stations?: { buckets: Buckets; isStation(keyId: string): Promise<boolean> };
    },
  ) => {
    app.addHook('onRequest', async (request, reply) => {
      const { isApi, keyId, verified } = checked(request);
      if (!isApi || verified?.session) return;
      const station = verified && keyId && opts.stations && (await opts.stations.isStation(keyId));
      const buckets = station ? opts.stations!.buckets : opts.buckets;
      const limit = await buckets.take(verified && keyId ? `key:${keyId}` : `ip:${request.ip}`);
      void reply
        .header('X-RateLimit-Limit', limit.limit)
        .header('X-RateLimit-Remaining', limit.remaining)
        .header('X-RateLimit-Reset', limit.resetAt);
      if (!limit.allowed) {
        void reply.header('Retry-After', limit.retryAfter);
        const what = verified || !keyId ? 'Too many requests' : 'Too many failed requests';
        return reply.code(429).send({
          ...errorBody(429, 'rate_limited', `${what}; retry after ${limit.retryAfter} s`),
          retryAfter: limit.retryAfter,
        });
      }
    });
  },
);

export const hostCheck = global(async (app, opts: { allowAnyHost: boolean }) => {
  if (opts.allowAnyHost) return;
  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopbackHost(request.headers.host)) {
      return reply
        .code(403)
        .send(
          errorBody(
            403,
            'host_not_allowed',
            'This server answers only requests addressed to this machine (a loopback Host header)',
          ),
        );
    }
  });
});

export const requireAuth = global(async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    const { isApi, path, keyId, verified } = checked(request);
    if (!isApi) return; // the app's own static files
    if (isPublicRoute(path)) return;
    if (!verified || !keyId) {
      void reply.header('WWW-Authenticate', 'Bearer realm="giftdesk"');
      const why = !request.headers['x-api-key']
        ? 'X-API-Key header is missing'
        : !request.headers.authorization
          ? 'Authorization header is missing'
          : 'the API key or secret is not valid';
      return reply
        .code(401)
        .send(
          errorBody(
            401,
            'unauthorized',
            `Authentication failed: ${why}. Send X-API-Key: <keyId> and Authorization: Bearer <secret>.`,
          ),
        );
    }
    request.auth = {
      accountId: verified.accountId,
      keyId,
      session: verified.session,
      role: verified.role,
      user: verified.user,
    };
  });
});

/** The API routes each server registered, as `METHOD /api/v1/path` (HEAD folded into GET). */
const apiRoutesOf = new WeakMap<FastifyInstance, Set<string>>();

/**
 * Every non-public /api/ route registered on this server after roleGate (the route-rules test
 * checks each has a rule).
 */
export function registeredApiRoutes(app: FastifyInstance): string[] {
  return [...(apiRoutesOf.get(app) ?? [])].sort();
}

export const roleGate = global(async (app, opts: { ctx: DomainContext }) => {
  const routes = new Set<string>();
  apiRoutesOf.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || isPublicRoute(route.url)) return;
    for (const m of [route.method].flat()) routes.add(`${m === 'HEAD' ? 'GET' : m} ${route.url}`);
  });
  app.addHook('onRequest', async (request, reply) => {
    const auth = request.auth;
    const url = request.routeOptions.url;
    // No key (a public route, or the app's own files) or no route (the 404 answers).
    if (!auth || url === undefined) return;
    const may = roleMay(auth.role, request.method, url);
    if (!may.allowed) return reply.code(403).send(errorBody(403, 'role_forbidden', may.message));
    // A volunteer's own: a route of one gift or batch (`own`) opens only theirs.
    const own = ruleOf(request.method, url)?.own;
    const owner = volunteerOwner(request);
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (!own || !owner || typeof id !== 'string') return;
    const mine = await isOwnRecord(opts.ctx.store.db, own, auth.accountId, id, owner);
    if (mine === false) {
      const what = own === 'gift' ? 'gifts they entered' : 'batches they started';
      return reply
        .code(403)
        .send(
          errorBody(
            403,
            'not_own_record',
            `A volunteer may use only the ${what}: ${own} ${id} is someone else's (ask a coordinator or treasurer)`,
            [{ field: 'id', issue: `is not this volunteer's ${own}` }],
          ),
        );
    }
  });
});
