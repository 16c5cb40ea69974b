/**
 * The event hub's gate, registered between the Host check and authentication (gates.ts):
 *
 * - A revoked station's key, presented with its right secret, is refused with 401
 *   `station_revoked` and a sentence saying when it was removed from the event (any other bad
 *   key gets requireAuth's plain 401).
 * - A station's key opens only what a station does: pair, read the feed, report, and send and
 *   read gifts and donors (the spec routes its sync engine uses, and the reference lists), and
 *   send the thank-you marks of its gifts, and ask for a correction or void of a gift it typed;
 *   anything else (hosting, codes, other stations, keys, sync settings…) is 403
 *   `station_key_forbidden`. The request carries its station (`request.station`) for the routes:
 *   a gift is stamped with it, a donor it creates may be one the event has already.
 * - A station heard from is noted (at most every few seconds), and a write through this
 *   server wakes the feed's long polls at once.
 */
import type { FastifyRequest } from 'fastify';
import { authenticateApiKey, revokedKeyOf } from '../domain/accounts/index.ts';
import type { HubServices, KeyStation } from '../hub/index.ts';
import { errorBody } from './errors.ts';
import { wholeServer } from './gates.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The event station whose key made this request (null: not a station's key). */
    station: KeyStation | null;
  }
}

/** What a station's key may do: [methods, route] (the route the router matched, e.g. `/api/v1/contacts/:id`). */
const STATION_ROUTES: Array<[RegExp, RegExp]> = [
  [/^POST$/, /^\/api\/v1\/hub\/(join|join\/confirm|report)$/],
  [/^GET$/, /^\/api\/v1\/hub\/(changes|donors\/[^/]+)$/],
  [/^(GET|POST|PUT|DELETE)$/, /^\/api\/v1\/contacts(\/[^/]+)?$/],
  [/^(GET|POST)$/, /^\/api\/v1\/donations$/],
  [/^POST$/, /^\/api\/v1\/donations\/thank-you$/],
  [/^GET$/, /^\/api\/v1\/donations\/[^/]+$/],
  // Its own gifts' correction and void, which the hub makes under its rules (the route checks the station).
  [/^PATCH$/, /^\/api\/v1\/donations\/[^/]+$/],
  [/^POST$/, /^\/api\/v1\/donations\/[^/]+\/void$/],
  [/^GET$/, /^\/api\/v1\/(campaigns|committees|donation-accounts|custom-fields)(\/[^/]+)?$/],
];

export function stationMay(method: string, path: string): boolean {
  return STATION_ROUTES.some(([m, p]) => m.test(method) && p.test(path));
}

const BEARER = /^Bearer [^\s]+$/i;

/** The 401 of a removed station's key, saying when it was removed. */
function stationRevoked(revokedAt: string) {
  return errorBody(
    401,
    'station_revoked',
    `This station was removed from the event at ${revokedAt}: the hub no longer takes its changes. Ask the person hosting the event to pair it again if that was a mistake.`,
  );
}

/**
 * The key of a request that has waited (the feed's long poll) checked again before it is
 * answered: null while it still works, else the 401 a new request with it would get now
 * (`station_revoked` for a removed station's key, or paired again with a new one).
 */
export async function keyRecheck(
  hub: HubServices,
  request: FastifyRequest,
): Promise<ReturnType<typeof errorBody> | null> {
  const keyId = request.keyCheck?.keyId ?? null;
  const authz = request.headers.authorization;
  const secret = typeof authz === 'string' && BEARER.test(authz) ? authz.slice(7) : null;
  if (!keyId || !secret) return null; // the route was reached without a key: not one of the feed's
  if (await authenticateApiKey(hub.ctx, keyId, secret)) return null;
  const revoked = await revokedKeyOf(hub.ctx, keyId, secret);
  if (revoked && (await hub.stationOfKey(keyId))) return stationRevoked(revoked.revokedAt);
  return errorBody(
    401,
    'unauthorized',
    'Authentication failed: the API key was revoked while the request waited',
  );
}

export const stationGate = wholeServer(async (app, opts: { hub: HubServices }) => {
  const { hub } = opts;
  app.decorateRequest('station', null);
  app.addHook('onRequest', async (request, reply) => {
    const { isApi, path, keyId, verified } = request.keyCheck!;
    if (!isApi || !keyId) return;
    if (!verified) {
      const authz = request.headers.authorization;
      if (typeof authz !== 'string' || !BEARER.test(authz)) return;
      const revoked = await revokedKeyOf(hub.ctx, keyId, authz.slice(7));
      if (!revoked || !(await hub.stationOfKey(keyId))) return;
      return reply.code(401).send(stationRevoked(revoked.revokedAt));
    }
    const station = await hub.stationOfKey(keyId);
    if (!station) return;
    request.station = station;
    // The confirmation of a join notes the contact in its own write (stations.ts).
    if (request.routeOptions.url !== '/api/v1/hub/join/confirm') hub.seen(station.id);
    if (!stationMay(request.method, path))
      return reply
        .code(403)
        .send(
          errorBody(
            403,
            'station_key_forbidden',
            `A station's key sends the station's gifts and donors and reads the event's changes; ${request.method} ${request.url.split('?')[0]} needs a key of the hub itself`,
          ),
        );
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 300) hub.feed.kick();
  });
});
