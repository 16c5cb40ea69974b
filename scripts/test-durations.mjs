// Writes test/durations.json from the JSON reports of a whole run (test-results/sqlite.json and
// test-results/postgres.json, as `npm test` and CI write them): each file's seconds, by engine.
// test/sequencer.ts starts the longest files first with it, so a fresh clone (no vitest cache)
// does not leave its slowest files for last. Run it after a full `npm test` and commit the file:
//   node scripts/test-durations.mjs
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = {};
for (const engine of ['sqlite', 'postgres']) {
  const file = path.join(root, 'test-results', `${engine}.json`);
  if (!fs.existsSync(file)) {
    process.stderr.write(`no ${path.relative(root, file)}: run \`npm test\` first\n`);
    process.exit(1);
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const seconds = {};
  for (const t of report.testResults) {
    const rel = path.relative(root, t.name).split(path.sep).join('/');
    seconds[rel] = Math.round((t.endTime - t.startTime) / 100) / 10;
  }
  out[engine] = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
}
fs.writeFileSync(path.join(root, 'test', 'durations.json'), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(
  `test/durations.json: ${Object.keys(out.sqlite).length} SQLite files, ${Object.keys(out.postgres).length} PostgreSQL files\n`,
);
