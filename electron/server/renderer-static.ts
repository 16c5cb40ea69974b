/**
 * Serves the built renderer (dist/renderer) from the API's own origin with a strict CSP,
 * and — for a browser, where no preload bridge hands over credentials — the one-time-token
 * exchange: POST /api/v1/browser-session trades a token from the printed URL for an API
 * session (a fresh key for this window). The key outlives a restart of the server on the same
 * data folder (the tab carries on), until a person ends it or it goes unused for a day's
 * idle time (domain/accounts/sessions.ts, BROWSER_SESSION_IDLE_MS).
 *
 * Files are read once at start (the bundle is small and content-hashed); nothing outside
 * the folder can be asked for, because only the files found there get a route.
 */
import { ErrorBody } from '#shared/schemas/common.ts';
import { AppSession, BrowserSessionRequest } from '#shared/schemas/session.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fs from 'node:fs';
import path from 'node:path';
import type { DomainContext } from '../domain/index.ts';
import { contentSecurityPolicy } from '../shell/security.ts';
import { openDesktopSession } from '../shell/session.ts';
import type { ServerPlugin } from './app.ts';
import { errorBody } from './errors.ts';
import type { AppLinkTokens } from './one-time-tokens.ts';

export interface RendererStaticOptions {
  /** The built renderer (vite build's outDir). */
  dir: string;
  /** Browser sessions through one-time tokens (npm start). Electron leaves this out: its preload hands the session over. */
  browserSessions?: {
    tokens: AppLinkTokens;
    /** Called after a token was traded (e.g. to print a fresh link for another window). */
    onRedeemed?: () => void;
    /** The data folder to name to the command line (`--data-dir`), when not the default one. */
    dataDir?: string | null;
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

function readTree(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.name.startsWith('.')) continue; // build stamps and the like
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const rel = path.relative(dir, full).split(path.sep).join('/');
        const type = TYPES[path.extname(entry.name).toLowerCase()];
        if (!type) continue;
        files.set(`/${rel}`, { body: fs.readFileSync(full), type, immutable: rel.startsWith('assets/') });
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return files;
}

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', contentSecurityPolicy())
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('X-Frame-Options', 'DENY');
}

export function rendererStatic(opts: RendererStaticOptions): ServerPlugin {
  return async (app: FastifyInstance, { ctx }: { ctx: DomainContext }) => {
    const files = readTree(opts.dir);
    const index = files.get('/index.html');

    const send = (reply: FastifyReply, file: StaticFile) =>
      pageHeaders(reply)
        .type(file.type)
        .header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-store')
        .send(file.body);

    app.get('/', { schema: { hide: true } }, async (_req, reply) => {
      if (!index) {
        return pageHeaders(reply)
          .code(503)
          .type('text/plain; charset=utf-8')
          .send(
            `The app's screens are not built (no ${path.join(opts.dir, 'index.html')}). Run: npm run build:renderer`,
          );
      }
      return send(reply, index);
    });
    for (const [urlPath, file] of files) {
      if (urlPath === '/index.html') continue;
      app.get(urlPath, { schema: { hide: true } }, async (_req, reply) => send(reply, file));
    }

    const sessions = opts.browserSessions;
    if (!sessions) return;
    app.withTypeProvider<ZodTypeProvider>().post('/api/v1/browser-session', {
      schema: {
        tags: ['Extensions'],
        summary:
          'Trade the one-time token of the printed app URL for an API session (browser use of the app)',
        body: BrowserSessionRequest,
        response: { 201: AppSession, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
      },
      handler: async (req, reply) => {
        if (!(await sessions.tokens.redeem(req.body.token))) {
          return reply
            .code(401)
            .send(
              errorBody(
                401,
                'token_not_valid',
                'This link has been used already or has expired. Open the newest link printed where GiftDesk is running.',
                [{ field: 'token', issue: 'has been used or has expired' }],
              ),
            );
        }
        const s = await openDesktopSession(ctx, '', 'browser window', 'browser');
        sessions.onRedeemed?.();
        return reply
          .code(201)
          .header('Cache-Control', 'no-store')
          .send({
            accountId: s.accountId,
            keyId: s.keyId,
            secret: s.secret,
            dataDir: sessions.dataDir ?? null,
          });
      },
    });
  };
}
