/**
 * The HTTP face: maps /api/v1 to domain calls. Auth, host check, rate limit, errors and the
 * OpenAPI document live here; no business rule does.
 */
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
import { newId } from '../../shared/ids.ts';
import { authenticateApiKey } from '../domain/accounts.ts';
import type { DomainContext } from '../domain/context.ts';
import { DomainError, type FieldIssue } from '../domain/errors.ts';
import { errorBody, errorHandler } from './errors.ts';
import { isLoopbackHost } from './hosts.ts';
import { contactViewRoutes } from './routes/contact-views.ts';
import { giftCheckRoutes } from './routes/gift-checks.ts';
import { contactRoutes } from './routes/contacts.ts';
import { donationRoutes } from './routes/donations.ts';
import { extensionRoutes } from './routes/extensions.ts';
import { importRoutes } from './routes/imports.ts';
import { type SyncServices, syncRoutes } from './routes/sync.ts';
import { syncPullRoutes } from './routes/sync-pull.ts';
import { requestLogSerializer } from './log-redact.ts';
import { NOT_UTF8_ISSUE, findTextIssues, replacementIssue } from './text-check.ts';
import { createBuckets } from './token-bucket.ts';

import type { Auth } from './scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

export interface ServerOptions {
  ctx: DomainContext;
  /** pino options or false; secrets are redacted either way. */
  logger?: FastifyServerOptions['logger'];
  rateLimit?: { ratePerSecond: number; burst: number };
  /** Accept any Host header (the server was bound beyond loopback on purpose). */
  allowAnyHost?: boolean;
  bodyLimitBytes?: number;
  /** Sync to HQ: the key source of the stored secret, and the scheduler when this process syncs. */
  sync?: SyncServices;
  /** Extra routes (e.g. the renderer's static files), registered inside the app. */
  plugins?: ServerPlugin[];
  /** Serve HTTPS with this certificate and key (PEM) instead of plain HTTP. */
  https?: { cert: Buffer; key: Buffer };
}

/** A plugin given to buildServer: extra routes, with the domain context at hand. */
export type ServerPlugin = (app: FastifyInstance, opts: { ctx: DomainContext }) => Promise<void>;

// browser-session: trades a one-time token for a session (answers 404 unless the renderer plugin registered it).
const PUBLIC_PREFIXES = ['/api/v1/openapi.json', '/api/v1/docs', '/api/v1/browser-session'];

/**
 * The generator leaves `$id: "#/components/schemas/X"` and `$schema` on each component schema.
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) forbids a fragment in `$id`, and `$schema`
 * belongs only on a resource root: drop both (the `$ref`s point into components anyway).
 */
function withoutSchemaIds<T>(doc: T): T {
  const schemas = (doc as { components?: { schemas?: Record<string, Record<string, unknown>> } }).components?.schemas;
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
    ...(tls ? { serverFactory: (handler: http.RequestListener) => https.createServer({ cert: tls.cert, key: tls.key }, handler) as unknown as http.Server } : {}),
    logger: withRedactedRequests(opts.logger),
    bodyLimit: opts.bodyLimitBytes ?? 1024 * 1024,
    genReqId: () => newId('request'),
    return503OnClosing: true,
    forceCloseConnections: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Answered before routing (bad %-encoding, an over-long path segment, malformed HTTP):
    // still the API's error body and a request id, never Fastify's own.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = tooLong ? 414 : 400;
      const issue = tooLong ? 'is longer than this server accepts' : 'is not a valid URL (bad percent-encoding)';
      void reply.header('X-Request-Id', request.id).code(status).send(errorBody(status, tooLong ? 'path_too_long' : 'bad_url', `The request path ${issue}`, [{ field: '(path)', issue }]));
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
        socket.write(`HTTP/1.1 ${status} ${errorBody(status, '', '').error}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${newId('request')}\r\nConnection: close\r\n\r\n${body}`);
      }
      socket.destroy(err);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.decorateRequest('auth', null);
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

  const buckets = createBuckets(opts.rateLimit ?? { ratePerSecond: 20, burst: 40 });
  const ctx = opts.ctx;

  app.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
    const path = request.url.split('?')[0] ?? '';
    const isApi = path.startsWith('/api/');
    const keyHeader = request.headers['x-api-key'];
    const keyId = typeof keyHeader === 'string' && /^gdk_[0-9A-Za-z]{10,40}$/.test(keyHeader) ? keyHeader : null;
    const authz = request.headers.authorization;
    const secret = typeof authz === 'string' && /^Bearer [^\s]+$/i.test(authz) ? authz.slice(7) : null;
    // The secret is checked before any bucket is charged: a key's own bucket is charged only
    // for requests that proved they hold it. Everything else (no key, a made-up key id, a real
    // key id with a wrong secret) is charged to the caller's address, so knowing a key's id is
    // not enough to lock its holder out.
    const verified = isApi && keyId && secret ? await authenticateApiKey(ctx, keyId, secret) : null;
    // Counted before the Host check, so every API response (a refusal too) carries the rate headers.
    // The app's own session (its window's key, minted by this process and working only in it:
    // api_keys.session_kind) is not a script: no limit (see docs/scripts.md, "The API in one minute"). It is exempt
    // only once its secret checked out; a wrong secret with its key id pays as above.
    if (isApi && !verified?.session) {
      const limit = buckets.take(verified && keyId ? `key:${keyId}` : `ip:${request.ip}`);
      void reply.header('X-RateLimit-Limit', limit.limit).header('X-RateLimit-Remaining', limit.remaining).header('X-RateLimit-Reset', limit.resetAt);
      if (!limit.allowed) {
        void reply.header('Retry-After', limit.retryAfter);
        const what = verified || !keyId ? 'Too many requests' : 'Too many failed requests';
        return reply.code(429).send({ ...errorBody(429, 'rate_limited', `${what}; retry after ${limit.retryAfter} s`), retryAfter: limit.retryAfter });
      }
    }
    if (!opts.allowAnyHost && !isLoopbackHost(request.headers.host)) {
      return reply.code(403).send(errorBody(403, 'host_not_allowed', 'This server answers only requests addressed to this machine (a loopback Host header)'));
    }
    if (!isApi) return; // the app's own static files
    if (PUBLIC_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return;
    if (!verified || !keyId) {
      void reply.header('WWW-Authenticate', 'Bearer realm="giftdesk"');
      const why = !keyHeader ? 'X-API-Key header is missing' : !authz ? 'Authorization header is missing' : 'the API key or secret is not valid';
      return reply.code(401).send(errorBody(401, 'unauthorized', `Authentication failed: ${why}. Send X-API-Key: <keyId> and Authorization: Bearer <secret>.`));
    }
    request.auth = { accountId: verified.accountId, keyId, session: verified.session };
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
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
      await contactRoutes(api, ctx);
      await contactViewRoutes(api, ctx);
      await giftCheckRoutes(api, ctx);
      await donationRoutes(api, ctx);
      await extensionRoutes(api, ctx);
      await importRoutes(api, ctx);
      await syncRoutes(api, ctx, opts.sync);
      await syncPullRoutes(api, ctx, opts.sync);
    },
    { prefix: '/api/v1' },
  );
  for (const p of opts.plugins ?? []) await app.register(p, { ctx });
  return app;
}
