/**
 * A preload that times every SQLite statement a process runs (better-sqlite3's run, all, get,
 * iterate and exec), summed by statement text with long VALUES lists folded, and writes the
 * largest sums to SQLTIME_FILE when the process exits. Part hub-join loads it into the join
 * with `BENCH_JOIN_IMPORT=bench/sql-statement-times.mjs SQLTIME_FILE=/tmp/sql.txt`. Wall time
 * inside SQLite (a commit's fsync included), not CPU: on a loaded machine it includes waiting.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const stats = new Map();
const add = (key, ms) => {
  const s = stats.get(key) ?? { n: 0, ms: 0 };
  s.n++;
  s.ms += ms;
  stats.set(key, s);
};
const fold = (source) =>
  source
    .replace(/\s+/g, ' ')
    .replace(/(\?, )+\?/g, '?…')
    .replace(/(\(\?…\), )+\(\?…\)/g, '(…)…')
    .slice(0, 140);
const probe = new Database(':memory:');
const statement = Object.getPrototypeOf(probe.prepare('select 1'));
probe.close();
for (const method of ['run', 'all', 'get', 'iterate']) {
  const original = statement[method];
  statement[method] = function (...args) {
    const t0 = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      add(fold(this.source), Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
}
const exec = Database.prototype.exec;
Database.prototype.exec = function (source) {
  const t0 = process.hrtime.bigint();
  try {
    return exec.call(this, source);
  } finally {
    add(`exec: ${fold(source)}`, Number(process.hrtime.bigint() - t0) / 1e6);
  }
};
process.on('exit', () => {
  const file = process.env.SQLTIME_FILE;
  if (!file) return;
  const rows = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 60);
  const line = ([k, s]) => `${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(7)}  ${k}`;
  fs.writeFileSync(file, `${rows.map(line).join('\n')}\n`);
});
