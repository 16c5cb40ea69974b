import type { Command } from 'commander';
import { openStore } from '../db/open.ts';
import { databaseFile } from '../paths.ts';
import type { ServerPlugin } from '../server/app.ts';
import { hostedEvents } from '../hub/index.ts';
import { defaultKeySource } from '../sync/index.ts';
import { type CommonOptions, cliDataDirOption, common, resolveDataDir } from './context.ts';
import { CliError, print } from './output.ts';
import { announceHub, prepareHub, readTls } from './serve-hub.ts';
import { openServeLog, serveLogFile } from './serve-log.ts';

interface ServeCliOptions extends CommonOptions {
  port: string;
  host: string;
  demo?: boolean;
  ui?: boolean;
  rate?: string;
  trustProxy?: string;
  burst?: string;
  logLevel: string;
  logRequests?: boolean;
  sync?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  hub?: boolean;
  account?: string;
  specOnly?: boolean;
}

export function registerServe(program: Command): void {
  common(
    program
      .command('serve')
      .description('serve /api/v1 on this machine')
      .option('--port <n>', 'port (0 = any free port)', '4870')
      .option(
        '--host <h>',
        'address to bind; anything but loopback opens the API to the network (use TLS then)',
        '127.0.0.1',
      )
      .option(
        '--tls-cert <file>',
        'serve HTTPS with this certificate (PEM; the full chain), together with --tls-key',
      )
      .option('--tls-key <file>', 'the private key (PEM) of --tls-cert')
      .option(
        '--hub',
        "host an event: HTTPS only, with the hub's own certificate (made on the first start, kept in the data folder); prints its fingerprint and a pairing code",
      )
      .option('--account <id>', 'with --hub: the account whose event this is (default: the only one)')
      .option(
        '--spec-only',
        "answer only the donor API's routes, as its document describes them: no create-once by a gd: reference, every GiftDesk extension a 404 (an HQ like the hosted service, to try sync against)",
      )
      .option('--demo', 'seed a demo organisation when the data folder is empty')
      .option(
        '--ui',
        'also serve the app in a browser: builds it when stale, prints a link with a one-time token',
      )
      .option('--rate <n>', 'per-key rate limit, requests per second', '20')
      .option('--burst <n>', 'per-key burst', '40')
      .option(
        '--trust-proxy <addresses>',
        "the reverse proxy's addresses (comma-separated): requests from it count by the X-Forwarded-For address it names (sign-in throttle, rate limit)",
      )
      .option(
        '--log-level <level>',
        'fatal | error | warn | info | debug (of the log file; the terminal shows warnings and errors)',
        'info',
      )
      .option(
        '--log-requests',
        'also print a line per request on the terminal (every request is in the log file either way)',
      )
      .option(
        '--no-sync',
        'do not push to HQ from this process (accounts with HQ settings otherwise sync on their schedule)',
      ),
  ).action(async (o: ServeCliOptions) => {
    const port = Number(o.port);
    if (!/^\d+$/.test(o.port) || port > 65535)
      throw new CliError(`--port must be a whole number from 0 to 65535, not "${o.port}"`, 64, 'usage');
    const rate = Number(o.rate ?? 20);
    const burst = Number(o.burst ?? 40);
    if (!(rate > 0) || !(burst >= 1))
      throw new CliError('--rate must be above 0 and --burst at least 1', 64, 'usage');
    if (o.specOnly && (o.hub || o.ui))
      throw new CliError(
        `--spec-only serves the donor API alone: it cannot ${o.hub ? 'host an event (--hub)' : 'serve the app (--ui)'}`,
        64,
        'usage',
      );
    const tls = readTls(o);
    const { LOG_REDACT, startServer } = await import('../server/serve.ts'); // only `serve` pays for loading the HTTP stack
    const dataDir = resolveDataDir(o);
    let rendererDist: string | null = null;
    if (o.ui) {
      const { ensureRendererBuilt, RENDERER_DIST } = await import('./renderer-build.ts');
      await ensureRendererBuilt({ log: (line) => process.stderr.write(`${line}\n`) });
      rendererDist = RENDERER_DIST;
    }
    const databaseUrl = o.databaseUrl ?? process.env.DATABASE_URL;
    let running: Awaited<ReturnType<typeof startServer>> | undefined;
    if (!databaseUrl) {
      // A damaged file is refused before it is migrated or served (the message says how to restore).
      const { assertIntact, damagedMessage } = await import('../db/sqlite/integrity.ts');
      const file = databaseFile(dataDir);
      const checked = await assertIntact(file, {
        onLate: (r) => {
          if (r.status === 'damaged')
            running?.app.log.error({ integrity: r }, damagedMessage(file, r.problems));
          else
            running?.app.log.info({ integrity: { status: r.status, ms: r.ms } }, 'integrity check finished');
        },
      }).catch((err: Error & { code?: string }) => {
        throw err.code === 'database_damaged' ? new CliError(err.message, 65, 'database_damaged') : err;
      });
      if (checked?.status === 'unfinished') {
        const msg = `The integrity check of ${file} did not finish within its time; serving meanwhile, its result goes to the log (${serveLogFile(dataDir)})`;
        process.stderr.write(o.json ? `${JSON.stringify({ level: 40, msg })}\n` : `warning: ${msg}\n`);
      }
    }
    const store = await openStore({ dataDir, databaseUrl });
    let ui: ServerPlugin | null = null;
    let appLink = async (_url: string): Promise<string | null> => null;
    if (rendererDist) {
      const { appLinkTokens } = await import('../server/stored-one-time-tokens.ts');
      const { rendererStatic } = await import('../server/renderer-static.ts');
      // On PostgreSQL the links are in the database: one printed here opens on any server of it.
      const tokens = appLinkTokens(store);
      appLink = async (url) => `${url}/#token=${await tokens.issue()}`;
      const onRedeemed = () => {
        // The used link is dead; print a fresh one for another window or browser.
        if (!running) return; // not serving yet: no link was printed to be used
        const url = running.url;
        void appLink(url).then(
          (link) =>
            (o.json ? process.stderr : process.stdout).write(
              `The app link was used. For another window: ${link}\n`,
            ),
          () => undefined,
        );
      };
      // The app's Settings say the `giftdesk` command that reaches this data folder.
      const dataDirForCli = databaseUrl ? null : cliDataDirOption(o);
      ui = rendererStatic({
        dir: rendererDist,
        browserSessions: { tokens, onRedeemed, dataDir: dataDirForCli },
      });
    }
    const asHub = await prepareHub(o, store, dataDir);
    // Every log entry (requests included, redacted) goes to the data folder's log file; the
    // terminal shows warnings and errors (and the JSON lines with --json, requests with --log-requests).
    const log = openServeLog({
      dataDir,
      json: Boolean(o.json),
      requests: Boolean(o.logRequests),
      terminal: process.stderr,
    });
    try {
      running = await startServer({
        store,
        port,
        host: o.host,
        rateLimit: { ratePerSecond: rate, burst },
        ...(o.trustProxy
          ? {
              trustProxy: o.trustProxy
                .split(',')
                .map((a) => a.trim())
                .filter(Boolean),
            }
          : {}),
        plugins: ui ? [ui] : [],
        sync: { keys: defaultKeySource(dataDir), run: o.sync !== false },
        logger: { level: o.logLevel, redact: LOG_REDACT, stream: log.stream },
        ...(asHub ? { https: asHub.tls } : tls ? { https: tls } : {}),
        ...(o.specOnly ? {} : { hub: { dataDir, ...(asHub ? { account: asHub.account } : {}) } }),
        dataDir,
        ...(o.specOnly ? { specOnly: true } : {}),
      });
    } catch (err) {
      await store.close(); // e.g. the port is taken: say so and exit, do not hang
      await log.close();
      throw err;
    }
    // From here on a SIGTERM or Ctrl-C finishes the requests in flight, closes the database, exits 0.
    const stop = (signal: string) => {
      running.app.log.info({ signal }, 'shutting down');
      running.close().then(
        () => log.close().then(() => process.exit(0)),
        () => log.close().then(() => process.exit(1)),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    let demoAccount: string | null = null;
    try {
      if (o.demo) {
        const { seedDemoIfEmpty } = await import('./demo/demo.ts');
        const demo = await seedDemoIfEmpty(running.ctx);
        // A script reading the JSON log gets the demo key there; people get no secret on the
        // terminal (it would stay in its scrollback): the command that makes a key instead.
        if (demo && o.json)
          process.stderr.write(
            `Demo organisation ${demo.accountId}\n  X-API-Key: ${demo.keyId}\n  Authorization: Bearer ${demo.secret}\n`,
          );
        demoAccount = demo?.accountId ?? null;
      }
    } catch (err) {
      await running.close(); // a server that failed to start fully must not keep the port
      await log.close();
      throw err;
    }
    if (asHub) return announceHub(o, running, asHub, log.file);
    const link = await appLink(running.url);
    // An event this folder hosts is not served by this server until someone serves it again.
    const notServed = (await hostedEvents(running.ctx.store.db)).map((h) => ({
      accountId: h.accountId,
      url: h.url,
    }));
    const json = {
      url: running.url,
      ...(link ? { appUrl: link } : {}),
      ...(notServed.length > 0 ? { eventNotServed: notServed } : {}),
    };
    print(o, json, () =>
      [
        ...notServed.map(
          (h) =>
            `THE EVENT IS NOT BEING SERVED: this data folder hosts the event of account ${h.accountId}${h.url ? ` (last served at ${h.url})` : ''}, but this server does not serve it, so the stations cannot reach it. Serve it again: giftdesk serve --hub --account ${h.accountId}, or Settings → Event → "Serve the event again" in the app.`,
        ),
        `GiftDesk is serving ${running.url}/api/v1${o.specOnly ? " (the donor API's routes only)" : ''} (docs: ${running.url}/api/v1/docs)`,
        `Data folder: ${databaseUrl ? `${dataDir} (database: PostgreSQL)` : dataDir}`,
        `Log (warnings, errors and every request): ${log.file}${o.logRequests ? '' : ' (--log-requests prints requests here too)'}`,
        ...(demoAccount
          ? [
              `Demo organisation ${demoAccount}; a key for scripts: npx giftdesk key create --account ${demoAccount}`,
            ]
          : []),
        'Stop with Ctrl+C (requests in flight finish first).',
        ...(link
          ? [
              '',
              'Open GiftDesk in your browser (the link works once; a fresh one is printed when it is used):',
              `    ${link}`,
              '',
            ]
          : []),
      ].join('\n'),
    );
  });
}
