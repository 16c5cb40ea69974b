/**
 * The HTTP face: maps /api/v1 to domain calls. The gates every request passes (key check,
 * rate limit, Host check, authentication) are plugins in gates.ts; errors, text checks at
 * entry and the OpenAPI document are set up here; no business rule is.
 */
import { RETIRE_EXTENSION } from '#shared/sync-reference.ts';
import { newId } from '#shared/ids.ts';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { isUtf8 } from 'node:buffer';
import type http from 'node:http';
import https from 'node:https';
import type { DomainContext } from '../domain/index.ts';
import { DomainError, type FieldIssue } from '../domain/index.ts';
import { errorBody, errorHandler } from './errors.ts';
import type { HubServices } from '../hub/index.ts';
import { hostCheck, keyCheck, rateLimit, requireAuth, roleGate, stationLimit } from './gates.ts';
import { requestLogSerializer } from './log-redact.ts';
import { accountRoutes } from './routes/account.ts';
import { batchRoutes } from './routes/batches.ts';
import { contactViewRoutes } from './routes/contact-views.ts';
import { contactRoutes } from './routes/contacts.ts';
import { customFieldRoutes } from './routes/custom-fields.ts';
import { donationRoutes } from './routes/donations.ts';
import { electionRoutes } from './routes/elections.ts';
import { flagRoutes } from './routes/flags.ts';
import { hubRoutes } from './routes/hub.ts';
import { giftCheckRoutes } from './routes/gift-checks.ts';
import { importRoutes } from './routes/imports.ts';
import { letterRoutes } from './routes/letters.ts';
import { referenceRoutes } from './routes/reference.ts';
import { statsRoutes } from './routes/stats.ts';
import { peopleRoutes } from './routes/people.ts';
import { raisedByRoutes } from './routes/raised-by.ts';
import { syncPullRoutes } from './routes/sync-pull.ts';
import { eventRoutes } from './routes/event.ts';
import { syncRoutes, type SyncServices } from './routes/sync.ts';
import { stationGate } from './station-gate.ts';
import { NOT_UTF8_ISSUE, findTextIssues, replacementIssue } from './text-check.ts';
import { createSharedBuckets } from './shared-buckets.ts';
import { type BucketOptions, type Buckets, createBuckets } from './token-bucket.ts';

export interface ServerOptions {
  ctx: DomainContext;
  /** pino options or false; secrets are redacted either way. */
  logger?: FastifyServerOptions['logger'];
  rateLimit?: BucketOptions;
  /** Accept any Host header (the server was bound beyond loopback on purpose). */
  allowAnyHost?: boolean;
  /**
   * The addresses of reverse proxies in front of this server: a request from one of them is
   * taken to come from the address its X-Forwarded-For names (the sign-in throttle and the
   * rate limit count by it). Without it every caller behind a proxy is the proxy.
   */
  trustProxy?: string[];
  bodyLimitBytes?: number;
  /** Sync to HQ: the key source of the stored secret, and the scheduler when this process syncs. */
  sync?: SyncServices;
  /** Extra routes (e.g. the renderer's static files), registered inside the app. */
  plugins?: ServerPlugin[];
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP. */
  https?: { cert: Buffer; key: Buffer };
  /** The event hub's state (shared by every listener on this database): its routes and station gate. */
  hub?: HubServices;
  /** The data folder: print runs write their PDFs under it (`letters/`). Without it a run is refused. */
  dataDir?: string;
  /**
   * Answer only the donor API's routes, with their documented behaviour (`serve --spec-only`):
   * contacts (list, read, create, update, delete), donations (list, create), a campaign by id.
   * No create-once by a `gd:` reference, and every GiftDesk extension route is a 404 — an HQ
   * like the hosted service, for trying the sync against (docs/hq.md).
   */
  specOnly?: boolean;
}

/** A plugin given to buildServer: extra routes, with the domain context at hand. */
export type ServerPlugin = (app: FastifyInstance, opts: { ctx: DomainContext }) => Promise<void>;

/**
 * The generator leaves `$id: "#/components/schemas/X"` and `$schema` on each component schema.
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) forbids a fragment in `$id`, and `$schema`
 * belongs only on a resource root: drop both (the `$ref`s point into components anyway).
 */
function withoutSchemaIds<T>(doc: T): T {
  const schemas = (doc as { components?: { schemas?: Record<string, Record<string, unknown>> } }).components
    ?.schemas;
  for (const schema of Object.values(schemas ?? {})) {
    delete schema.$id;
    delete schema.$schema;
  }
  return doc;
}

/**
 * The logger's options with requests logged by route and URL with personal query values
 * redacted (a search for a donor's name never reaches a log file).
 */
function withRedactedRequests(logger: ServerOptions['logger']): ServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...(base.serializers ?? {}), req: requestLogSerializer } };
}

function invalidText(issues: FieldIssue[]): DomainError {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new DomainError('bad_request', 'invalid_text', `${first.field} ${first.issue}${more}`, issues);
}

export async function buildServer(opts: ServerOptions): Promise<FastifyInstance> {
  const tls = opts.https;
  const app = Fastify({
    ...(tls
      ? {
          serverFactory: (handler: http.RequestListener) =>
            https.createServer({ cert: tls.cert, key: tls.key }, handler) as unknown as http.Server,
        }
      : {}),
    logger: withRedactedRequests(opts.logger),
    bodyLimit: opts.bodyLimitBytes ?? 1024 * 1024,
    genReqId: () => newId('request'),
    ...(opts.trustProxy && opts.trustProxy.length > 0 ? { trustProxy: opts.trustProxy } : {}),
    return503OnClosing: true,
    forceCloseConnections: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Answered before routing (bad %-encoding, an over-long path segment, malformed HTTP):
    // still the API's error body and a request id, never Fastify's own.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = tooLong ? 414 : 400;
      const issue = tooLong
        ? 'is longer than this server accepts'
        : 'is not a valid URL (bad percent-encoding)';
      void reply
        .header('X-Request-Id', request.id)
        .code(status)
        .send(
          errorBody(status, tooLong ? 'path_too_long' : 'bad_url', `The request path ${issue}`, [
            { field: '(path)', issue },
          ]),
        );
    },
    clientErrorHandler: (err, socket) => {
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
      const code = (err as NodeJS.ErrnoException).code;
      const [status, errCode, message] =
        code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers_too_large', 'The request line or headers are larger than this server accepts']
          : code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request_timeout', 'The request took too long to arrive']
            : [400, 'bad_request', 'The request is not valid HTTP'];
      const body = JSON.stringify(errorBody(status, errCode, message));
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${errorBody(status, '', '').error}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${newId('request')}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // A DELETE carries no body, but many clients send Content-Type: application/json on every
  // request; Fastify would refuse that empty body (400). Read it as no body, as HQ does.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const text = bytes.toString('utf8');
    if (request.method === 'DELETE' && text === '') return done(null, undefined);
    // Text is refused, never changed: bytes that are not UTF-8, lone surrogates and NUL are a 400 naming the field.
    const utf8 = isUtf8(bytes);
    return parseJson(request, text, (err, parsed) => {
      if (err) return done(err, undefined);
      const issues = utf8 ? findTextIssues(parsed) : findTextIssues(parsed, replacementIssue);
      if (!utf8 && issues.length === 0) issues.push({ field: '(body)', issue: NOT_UTF8_ISSUE });
      if (issues.length > 0) return done(invalidText(issues), undefined);
      return done(null, parsed);
    });
  });
  // The same for the query string and path parameters (a search for "a\u0000b" included).
  app.addHook('preValidation', async (request) => {
    const issues = [...findTextIssues(request.params), ...findTextIssues(request.query)];
    if (issues.length > 0) throw invalidText(issues);
  });

  const ctx = opts.ctx;

  // The gates every request passes, in this order (gates.ts): the key checked, a script's
  // rate limit, the Host check, authentication for the API's routes, then the key's role
  // against the route's rule (route-rules.ts).
  await app.register(keyCheck, { ctx });
  const limit = opts.rateLimit ?? { ratePerSecond: 20, burst: 40 };
  const hub = opts.hub;
  // On PostgreSQL the buckets are in the database, shared by every server on it (a key's limit
  // is the same behind a load balancer); on SQLite, one process, in memory.
  const buckets = (set: string, o: BucketOptions): Buckets =>
    ctx.store.engine === 'postgres' ? createSharedBuckets(ctx.store.db, set, o) : createBuckets(o);
  await app.register(rateLimit, {
    buckets: buckets('api', limit),
    ...(hub
      ? {
          stations: {
            buckets: buckets('station', { ...limit, ...stationLimit(limit) }),
            isStation: async (keyId: string) => (await hub.stationOfKey(keyId)) !== null,
          },
        }
      : {}),
  });
  await app.register(hostCheck, { allowAnyHost: opts.allowAnyHost ?? false });
  if (opts.hub) await app.register(stationGate, { hub: opts.hub });
  await app.register(requireAuth);
  await app.register(roleGate, { ctx });
  // Every write that answered well, noted with its key: open windows elsewhere read again (GET /live).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return;
    if (request.auth) ctx.store.changes.note(request.auth.keyId);
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'GiftDesk API',
        version: '1.0.0',
        description:
          'The donor contacts and donations API (spec routes) plus GiftDesk extensions. Every route needs X-API-Key and Authorization: Bearer <secret>.',
      },
      components: {
        securitySchemes: {
          apiKeyId: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiKeyId: [], bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (doc) => withoutSchemaIds(jsonSchemaTransformObject(doc)),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/v1/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(
    async (api) => {
      if (opts.specOnly) {
        await contactRoutes(api, ctx, { specOnly: true });
        await donationRoutes(api, ctx, undefined, { specOnly: true });
        await referenceRoutes(api, ctx, { specOnly: true });
        return;
      }
      // What a GiftDesk sending here may use beyond the donor API (sync/push/trail.ts reads it);
      // a spec-only server names nothing.
      api.addHook('onRequest', async (_request, reply) => {
        void reply.header('X-GiftDesk-Extensions', `history, ${RETIRE_EXTENSION}`);
      });
      await contactRoutes(api, ctx);
      await contactViewRoutes(api, ctx);
      await giftCheckRoutes(api, ctx);
      await donationRoutes(api, ctx, opts.sync);
      await letterRoutes(api, ctx, opts.dataDir ?? null);
      await accountRoutes(api, ctx);
      await peopleRoutes(api, ctx);
      await referenceRoutes(api, ctx);
      await customFieldRoutes(api, ctx);
      await electionRoutes(api, ctx);
      await flagRoutes(api, ctx);
      await batchRoutes(api, ctx, opts.sync);
      await statsRoutes(api, ctx);
      await raisedByRoutes(api, ctx);
      await importRoutes(api, ctx);
      await syncRoutes(api, ctx, opts.sync);
      await syncPullRoutes(api, ctx, opts.sync);
      await eventRoutes(api, ctx, opts.sync, opts.hub ?? null);
      if (opts.hub) await hubRoutes(api, opts.hub);
    },
    { prefix: '/api/v1' },
  );
  for (const p of opts.plugins ?? []) await app.register(p, { ctx });
  return app;
}
