/**
 * Packages the desktop app with electron-builder (pinned in devDependencies):
 *   1. builds the screens (dist/renderer, through electron/cli/renderer-build.ts, which
 *      rebuilds only when the sources changed and swaps the folder whole) and the shell
 *      (scripts/build-electron.mjs → dist/electron);
 *   2. rebuilds better-sqlite3 for Electron's ABI with @electron/rebuild (it downloads
 *      Electron's headers), keeping a copy of the Node build, which is put back afterwards so
 *      the CLI, `npm start` and the tests keep working in this checkout;
 *   3. runs electron-builder with package.json's "build" config.
 *
 *   npm run package -- [--dir] [--linux|--win|--mac …] [--electron-dist <dir>] [--out <dir>] [--skip-rebuild]
 *
 * --dir builds the unpacked app only (no installer). --electron-dist points electron-builder
 * at an Electron directory instead of downloading one (its "electronDist" option); with
 * --skip-rebuild the native module stays Node's build, which only a test of the package's
 * contents should want (test/shell/packaging.test.ts does both, as Electron's binary and
 * headers cannot be downloaded on every machine).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { bundleElectron } from './build-electron.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const NATIVE = path.join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

function run(cmd, args) {
  const r = spawnSync(path.join(BIN, cmd), args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

export function parseArgs(argv) {
  const opts = { dir: false, platforms: [], electronDist: undefined, out: undefined, rebuild: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dir') opts.dir = true;
    else if (a === '--linux' || a === '--win' || a === '--mac') opts.platforms.push(a);
    else if (a === '--electron-dist') opts.electronDist = path.resolve(argv[++i] ?? '');
    else if (a === '--out') opts.out = path.resolve(argv[++i] ?? '');
    else if (a === '--skip-rebuild') opts.rebuild = false;
    else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

export async function packageApp(opts) {
  register();
  const { ensureRendererBuilt } = await import('../electron/cli/renderer-build.ts');
  await ensureRendererBuilt({ log: (line) => console.log(line) });
  await bundleElectron();
  const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-native-')), 'better_sqlite3.node');
  if (opts.rebuild) {
    fs.copyFileSync(NATIVE, saved);
    const electronVersion = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'),
    ).version;
    run('electron-rebuild', ['--force', '--only', 'better-sqlite3', '--version', electronVersion]);
  }
  try {
    const args = [...opts.platforms];
    if (opts.dir) args.push('--dir');
    if (opts.electronDist) args.push(`-c.electronDist=${opts.electronDist}`);
    if (opts.out) args.push(`-c.directories.output=${opts.out}`);
    run('electron-builder', args);
  } finally {
    if (opts.rebuild) fs.copyFileSync(saved, NATIVE);
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await packageApp(parseArgs(process.argv.slice(2)));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
