import type { Command } from 'commander';
import { openStore } from '../db/open.ts';
import { LOG_REDACT, startServer } from '../server/serve.ts';
import { type CommonOptions, common, resolveDataDir } from './context.ts';
import { print } from './output.ts';

interface ServeCliOptions extends CommonOptions {
  port: string;
  host: string;
  demo?: boolean;
  rate?: string;
  burst?: string;
  logLevel: string;
}

export function registerServe(program: Command): void {
  common(
    program
      .command('serve')
      .description('serve /api/v1 on this machine')
      .option('--port <n>', 'port (0 = any free port)', '4870')
      .option('--host <h>', 'address to bind; anything but loopback opens the API to the network', '127.0.0.1')
      .option('--demo', 'seed a demo organisation when the data folder is empty')
      .option('--rate <n>', 'per-key rate limit, requests per second', '20')
      .option('--burst <n>', 'per-key burst', '40')
      .option('--log-level <level>', 'fatal | error | warn | info | debug', 'info'),
  ).action(async (o: ServeCliOptions) => {
    const dataDir = resolveDataDir(o);
    const store = await openStore({ dataDir, databaseUrl: o.databaseUrl ?? process.env.DATABASE_URL });
    const port = Number(o.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, not ${o.port}`);
    const running = await startServer({
      store,
      port,
      host: o.host,
      rateLimit: { ratePerSecond: Number(o.rate ?? 20), burst: Number(o.burst ?? 40) },
      logger: { level: o.logLevel, redact: LOG_REDACT, stream: process.stderr },
    });
    let demoNote = '';
    if (o.demo) {
      const { seedDemoIfEmpty } = await import('../domain/demo.ts');
      const demo = await seedDemoIfEmpty(running.ctx);
      if (demo) {
        demoNote = `\nDemo organisation ${demo.accountId}\n  X-API-Key: ${demo.keyId}\n  Authorization: Bearer ${demo.secret}`;
        process.stderr.write(`${demoNote.trim()}\n`);
      }
    }
    print(o, { url: running.url }, () => `GiftDesk is serving ${running.url}/api/v1 (docs: ${running.url}/api/v1/docs)`);
    const stop = (signal: string) => {
      running.app.log.info({ signal }, 'shutting down');
      running.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
