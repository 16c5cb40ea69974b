// The PostgreSQL half of `npm test`: the API suite (test/api), the HQ tests (test/hq) and the
// sync suite (test/sync: the desktop side stays on SQLite, the remote HQ runs on PostgreSQL)
// again, on PostgreSQL. It needs GIFTDESK_TEST_DATABASE_URL: a role that may CREATE DATABASE
// (each test server gets a database of its own, dropped afterwards). In CI a missing or
// unreachable server fails the run; on a developer's machine it is skipped, loudly.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.GIFTDESK_TEST_DATABASE_URL;
const inCi = Boolean(process.env.CI);

function skip(why) {
  const line = '!'.repeat(78);
  console.error(`\n${line}\n!! PostgreSQL half of the suite NOT RUN: ${why}\n!! Set GIFTDESK_TEST_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres to run it.\n${line}\n`);
  process.exit(inCi ? 1 : 0);
}

if (!url) skip('GIFTDESK_TEST_DATABASE_URL is not set');
try {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  await c.end();
} catch (err) {
  skip(`cannot connect (${err.message})`);
}

const r = spawnSync('npx', ['vitest', 'run', 'test/api', 'test/hq', 'test/sync'], {
  stdio: 'inherit',
  // The randomized sync suite runs its full 200 seeds in the SQLite half; with HQ on PostgreSQL
  // the first 50 of the same fixed list (GIFTDESK_SEEDS overrides).
  env: { GIFTDESK_SEEDS: '50', ...process.env, GIFTDESK_TEST_ENGINE: 'postgres', DATABASE_URL: url },
});
process.exit(r.status ?? 1);
