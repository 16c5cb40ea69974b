/**
 * Where `giftdesk import donations` spends its time, on a copy of a database that has the
 * contacts and none of the donations (`BENCH_KEEP=1 BENCH_PARTS=import npm run bench` keeps
 * one: bench/.work/run-<pid>/contacts-only.sqlite, with donations.csv beside it).
 *
 *   node --import tsx bench/import-profile.ts <contacts-only.sqlite> <donations.csv> [rows]
 *
 * Runs the CLI's import in process with the CLI's settings (chunk target, page cache, WAL
 * size) on a scratch copy, timing every SQL statement by its kind (commits included), and
 * prints one JSON object: wall and CPU seconds, chunks, SQL seconds by kind, the rest.
 * `rows` (optional) imports only the file's first rows. PROFILE_OPTIONS (JSON) overrides the
 * import's options (`{"deferTotals":false}`: totals moved per chunk); PROFILE_DROP_INDEXES
 * (comma-separated names) drops indexes from the scratch copy first, to price each one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CLI_IMPORT_OPEN, CLI_IMPORT_OPTIONS } from '../electron/cli/data-commands.ts';
import { openStore } from '../electron/db/open.ts';
import { createContext } from '../electron/domain/context.ts';
import { importCsvFile } from '../electron/domain/import-export/imports.ts';

const [source, csvArg, rowsArg] = process.argv.slice(2);
if (!source || !csvArg) {
  process.stderr.write('usage: import-profile.ts <contacts-only.sqlite> <donations.csv> [rows]\n');
  process.exit(64);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gd-import-profile-'));
fs.copyFileSync(source, path.join(dir, 'giftdesk.sqlite'));
let csv = csvArg;
if (rowsArg) {
  const lines = fs.readFileSync(csvArg, 'utf8').split('\n');
  csv = path.join(dir, 'donations.csv');
  fs.writeFileSync(csv, `${lines.slice(0, Number(rowsArg) + 1).join('\n')}\n`);
}

/** Statement kind: the first words of its SQL, table names kept. */
function kind(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim().toLowerCase();
  if (s.startsWith('with v(')) return 'update contacts totals (from values)';
  const m =
    /^(insert into|update|delete from|select .*? from|begin|commit|rollback|savepoint|release)\s*"?(\w*)/.exec(
      s,
    );
  return m ? `${m[1]!.startsWith('select') ? 'select' : m[1]} ${m[2] ?? ''}`.trim() : s.slice(0, 40);
}

const sqlTime = new Map<string, { n: number; ms: number }>();
const probe = new BetterSqlite3(':memory:');
const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
probe.close();
for (const method of ['run', 'all', 'get', 'iterate'] as const) {
  const original = proto[method] as (...args: unknown[]) => unknown;
  proto[method] = function (this: { source: string }, ...args: unknown[]) {
    const t0 = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const k = kind(this.source);
      const e = sqlTime.get(k) ?? { n: 0, ms: 0 };
      e.n += 1;
      e.ms += performance.now() - t0;
      sqlTime.set(k, e);
    }
  };
}

// PROFILE_DROP_INDEXES=a,b: what those indexes cost, measured by importing without them (the
// scratch copy only; the app never drops them).
const dropIndexes = (process.env.PROFILE_DROP_INDEXES ?? '').split(',').filter(Boolean);
if (dropIndexes.length > 0) {
  const scratch = new BetterSqlite3(path.join(dir, 'giftdesk.sqlite'));
  for (const name of dropIndexes) scratch.exec(`drop index "${name.replace(/"/g, '')}"`);
  scratch.close();
}

const store = await openStore({ dataDir: dir, ...CLI_IMPORT_OPEN });
const ctx = createContext(store);
const accountId = (await store.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
let chunks = 0;
/** Bytes this process has written (Linux), the WAL's and the checkpoints' included. */
const writtenBytes = (): number => {
  try {
    return Number(/write_bytes: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
};
const written0 = writtenBytes();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const result = await importCsvFile(
  ctx,
  {
    ...CLI_IMPORT_OPTIONS,
    ...JSON.parse(process.env.PROFILE_OPTIONS ?? '{}'),
    kind: 'donations',
    accountId,
    push: false,
    onProgress: () => void (chunks += 1),
  },
  csv,
);
await store.close();
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const sqlMs = [...sqlTime.values()].reduce((a, b) => a + b.ms, 0);
const bySql = Object.fromEntries(
  [...sqlTime]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([k, v]) => [k, { n: v.n, s: +(v.ms / 1000).toFixed(2), share: +(v.ms / sqlMs).toFixed(3) }]),
);
process.stdout.write(
  `${JSON.stringify(
    {
      rows: result.processed,
      imported: result.imported,
      rejected: result.rejectedCount,
      chunks,
      wallSeconds: +wall.toFixed(2),
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(2),
      cpuUserSeconds: +(cpu.user / 1e6).toFixed(2),
      writtenMiB: Math.round((writtenBytes() - written0) / 2 ** 20),
      sqlSeconds: +(sqlMs / 1000).toFixed(2),
      outsideSqlSeconds: +(wall - sqlMs / 1000).toFixed(2),
      droppedIndexes: dropIndexes,
      loadAverage: os.loadavg().map((x) => +x.toFixed(2)),
      bySql,
    },
    null,
    2,
  )}\n`,
);
fs.rmSync(dir, { recursive: true, force: true });
