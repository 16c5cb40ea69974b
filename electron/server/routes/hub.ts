/**
 * The event hub's routes (GiftDesk extensions under /api/v1/hub). For stations: join (no key:
 * the pairing code is the credential; wrong codes are limited), the change feed with its long
 * poll, and the station's report. For the person hosting (a key of the account that is not a
 * station's; station-gate.ts keeps stations out): the hub's address and fingerprint, hosting
 * from this server, fresh codes, the stations and their revocation, the close-out.
 */
import { joinLinkFor } from '#shared/hub-link.ts';
import {
  CloseOut,
  HubAccountBody,
  HubAccountQuery,
  HubChanges,
  HubChangesQuery,
  HubDonorParams,
  HubCode,
  HubCodeBody,
  HubHostBody,
  HubInfo,
  HubJoinBody,
  HubJoinConfirmBody,
  HubJoinConfirmed,
  HubJoined,
  HubReportBody,
  HubReported,
  HubRevoked,
  HubStationList,
  HubStationParams,
} from '#shared/schemas/hub.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DomainError, isDomainError } from '../../domain/index.ts';
import {
  FEED_PAGE,
  type HubServices,
  closeOut,
  confirmStation,
  createPairingCode,
  eventHolds,
  hubAddresses,
  joinStation,
  listStations,
  emptyFeedPage,
  readChanges,
  readDonor,
  recordReport,
  requireHubSettings,
  revokeStation,
} from '../../hub/index.ts';
import { hqTakesMarks } from '../../sync/index.ts';
import { errorBody } from '../errors.ts';
import { keyRecheck } from '../station-gate.ts';
import { scopedAccount } from '../scope.ts';
import { errors } from './common.ts';

const tags = ['Event hub'];

function requireStation(req: FastifyRequest) {
  if (!req.station)
    throw new DomainError('forbidden', 'station_key_required', "Only a station's own key reports to the hub");
  return req.station;
}

/** The account's hub as the app shows it; with a fresh code when `withCode` (the only good one: `only`). */
async function hubInfo(
  hub: HubServices,
  accountId: string,
  withCode: boolean,
  only = false,
): Promise<HubInfo> {
  const settings = await requireHubSettings(hub.ctx.store.db, accountId);
  const current = hub.hosting?.current();
  const hosting = current?.accountId === accountId;
  const url = hosting ? current.url : settings.url;
  const code = withCode ? await createPairingCode(hub.ctx, accountId, { only }) : null;
  return {
    accountId,
    url,
    fingerprint: settings.fingerprint,
    joinLink: code && url ? joinLinkFor({ url, code: code.code, fingerprint: settings.fingerprint }) : null,
    addresses: hosting ? hubAddresses(url, settings.bindHost, hub.machineAddresses()) : url ? [url] : [],
    hosting,
    bindHost: settings.bindHost,
    pairingCode: code?.code ?? null,
    expiresAt: code?.expiresAt ?? null,
  };
}

export async function hubRoutes(app: FastifyInstance, hub: HubServices): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = hub.ctx;

  r.post('/hub/join', {
    schema: {
      tags,
      summary: 'Pair a station with this hub (no key: the pairing code is the credential)',
      description:
        'A one-time code (10 minutes) trades for the station’s own API key (shown once, here). A wrong, used or expired code is 403 pairing_code_wrong | pairing_code_used | pairing_code_expired; after 5 refused codes in a minute from one address every join from it is 429 with Retry-After, and after 50 from any addresses every join is. With `rejoin` (a station this hub removed: its id here and the key it had), the same station is taken back with a new key instead of a new one made; a proof that fails is 403 station_rejoin_refused and uses no code.',
      security: [],
      body: HubJoinBody,
      response: { 201: HubJoined, ...errors(400, 403) },
    },
    handler: async (req, reply) => {
      const wait = await hub.wrongCodes.retryAfter(req.ip);
      if (wait) {
        // The route's typed reply knows its success only; a 429 is every route's (errors()).
        const plain = reply as unknown as FastifyReply;
        void plain.header('Retry-After', wait.seconds);
        const where = wait.from === 'address' ? 'from this address' : 'at this hub';
        return plain.code(429).send({
          ...errorBody(
            429,
            'pairing_rate_limited',
            `Too many wrong pairing codes ${where} in the last minute; try again in ${wait.seconds} s`,
          ),
          retryAfter: wait.seconds,
        });
      }
      try {
        const joined = await joinStation(ctx, req.body);
        return reply.code(201).send({
          ...joined,
          hqTakesThankYouMarks: await hqTakesMarks(ctx.store.db, joined.accountId),
          holds: await eventHolds(ctx.store.db, joined.accountId),
        });
      } catch (err) {
        if (isDomainError(err) && err.code.startsWith('pairing_code_')) await hub.wrongCodes.refused(req.ip);
        throw err;
      }
    },
  });

  r.post('/hub/join/confirm', {
    schema: {
      tags,
      summary: 'A new station confirms it stored the key its join gave it (sent with that key)',
      description:
        'The join answers a new station unconfirmed (`confirmBy`): until it confirms it is not one of the event’s stations (not listed, not in the close-out), and one that has not confirmed within 10 minutes, or whose name is given again by a new join, is ended — its key revoked. A station’s report confirms it too. Confirming again changes nothing; too late is 409 station_join_expired.',
      body: HubJoinConfirmBody,
      response: { 200: HubJoinConfirmed, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) => {
      const station = requireStation(req);
      if (req.body.stationId !== station.id)
        throw new DomainError(
          'bad_request',
          'not_this_station',
          `This key is station ${station.id}'s, not ${req.body.stationId}'s`,
          [{ field: 'stationId', issue: "is not this key's station" }],
        );
      return confirmStation(ctx, station.id);
    },
  });

  r.get('/hub/changes', {
    schema: {
      tags,
      summary:
        "The event's ledger after a cursor: donors, deleted donors and gifts oldest first, and the small lists that changed",
      description:
        'Send back the cursor of the last answer as `after` (none: from the start). With `wait` (seconds, at most 30), an answer with nothing in it is held until the account changes or the time is up, and an answer that is not a full page gathers changes until 250 ms after the request came (so one answer carries many). `more`: ask again at once. `snapshots`: each small list of the event’s ledger that changed since the cursor (elections and the default election, letters’ settings, donation accounts, committees, campaigns, custom fields, the event’s stations); `reference` and `stations` are kept for stations of an earlier version.',
      querystring: HubChangesQuery,
      response: { 200: HubChanges, ...errors(400, 403) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, undefined);
      const limit = req.query.limit ?? FEED_PAGE;
      const arrived = hub.pace.now();
      const page = await readChanges(ctx, accountId, req.query.after, limit);
      if (!req.query.wait || page.more) return page;
      const gone = new AbortController();
      const onClose = () => gone.abort();
      reply.raw.once('close', onClose);
      try {
        if (emptyFeedPage(page))
          await hub.feed.wait(accountId, page.cursor, req.query.wait * 1000, gone.signal, req.auth?.keyId);
        // Gather: an answer that is not a full page leaves no sooner than pace.gatherMs after the
        // request came, so at event pace one answer carries many changes (services.ts).
        const left = arrived + hub.pace.gatherMs - hub.pace.now();
        if (left > 0 && !gone.signal.aborted) await hub.pace.pause(left, gone.signal);
      } finally {
        reply.raw.off('close', onClose);
      }
      // The key may have been revoked while the request waited (the station removed): it is
      // answered as a new request with that key would be, with nothing written since.
      const refused = await keyRecheck(hub, req);
      if (refused) return (reply as unknown as FastifyReply).code(401).send(refused);
      return readChanges(ctx, accountId, req.query.after, limit);
    },
  });

  r.get('/hub/donors/:id', {
    schema: {
      tags,
      summary:
        'One donor as the feed carries it, with every gift of it (a station gets back a donor whose deletion the hub refused)',
      description:
        'The answer has the shape of a page of the feed with no cursor: the donor in `contacts` (in `deletedContacts` when the hub does not have it), every gift of it in `donations`. The station keeps its own cursor.',
      params: HubDonorParams,
      response: { 200: HubChanges, ...errors(400, 403) },
    },
    handler: async (req) => readDonor(ctx, scopedAccount(req, undefined), req.params.id),
  });

  r.post('/hub/report', {
    schema: {
      tags,
      summary: 'A station says what it entered and what it still has waiting (for the close-out)',
      body: HubReportBody,
      response: { 200: HubReported, ...errors(400, 403) },
    },
    handler: async (req) => {
      const reported = await recordReport(ctx, requireStation(req).id, req.body);
      const accountId = scopedAccount(req, undefined);
      return { ...reported, hqTakesThankYouMarks: await hqTakesMarks(ctx.store.db, accountId) };
    },
  });

  r.get('/hub', {
    schema: {
      tags,
      summary: "The account's hub: its address and certificate fingerprint",
      querystring: HubAccountQuery,
      response: { 200: HubInfo, ...errors(400, 403, 404) },
    },
    handler: async (req) => hubInfo(hub, scopedAccount(req, req.query.accountId), false),
  });

  r.post('/hub/host', {
    schema: {
      tags,
      summary: 'Host this event: serve HTTPS for the stations beside this server, with a fresh pairing code',
      description:
        'Starts (or keeps) the hub’s listener on `host` (default 0.0.0.0) and `port` (default 4871) with the hub’s own certificate, made on the first time and kept in the data folder.',
      body: HubHostBody,
      response: { 200: HubInfo, ...errors(400, 403, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      if (!hub.hosting)
        throw new DomainError(
          'conflict',
          'hub_hosting_unavailable',
          'This server cannot host an event (it was started without a data folder for the certificate)',
        );
      await hub.hosting.host({ accountId, host: req.body.host, port: req.body.port });
      return hubInfo(hub, accountId, true);
    },
  });

  r.post('/hub/codes', {
    schema: {
      tags,
      summary: 'A fresh one-time pairing code (good for 10 minutes)',
      description:
        'With `only: true` the new code is the only good one: every older code of the event not used yet stops working (a join with one is 403 pairing_code_wrong).',
      body: HubCodeBody,
      response: { 200: HubCode, ...errors(400, 403, 404) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const info = await hubInfo(hub, accountId, true, req.body.only === true);
      return {
        code: info.pairingCode!,
        expiresAt: info.expiresAt!,
        url: info.url,
        fingerprint: info.fingerprint,
        joinLink: info.joinLink,
      };
    },
  });

  r.get('/hub/stations', {
    schema: {
      tags,
      summary: 'The paired stations: last contact, gifts received, what each still has waiting',
      querystring: HubAccountQuery,
      response: { 200: HubStationList, ...errors(400, 403) },
    },
    handler: async (req) => ({ stations: await listStations(ctx, scopedAccount(req, req.query.accountId)) }),
  });

  r.post('/hub/stations/:id/revoke', {
    schema: {
      tags,
      summary: 'Remove a station from the event: its key stops working at once',
      params: HubStationParams,
      body: HubAccountBody,
      response: { 200: HubRevoked, ...errors(400, 403, 404) },
    },
    handler: async (req) => revokeStation(ctx, req.params.id, scopedAccount(req, req.body.accountId)),
  });

  r.get('/hub/close-out', {
    schema: {
      tags,
      summary: "Closing the night: per station and in all, by payment method; the deposit's cash and checks",
      querystring: HubAccountQuery,
      response: { 200: CloseOut, ...errors(400, 403, 404) },
    },
    handler: async (req) => closeOut(ctx, scopedAccount(req, req.query.accountId)),
  });
}
