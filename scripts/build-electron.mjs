/**
 * Bundles the Electron shell for packaging with esbuild (the one tsx already brings):
 * - electron/main.ts → dist/electron/main.js (ESM, as package.json's "type": "module" and
 *   "main" say; node_modules stay external, electron-builder ships them);
 * - electron/server/imports/job-worker.ts → dist/electron/job-worker.js, the CSV import's
 *   worker thread, which the bundled main starts as `new URL('./job-worker.js', import.meta.url)`;
 * - electron/letters/render/letter-worker.ts → dist/electron/letter-worker.js, the letters'
 *   PDF renderer's worker thread, started the same way (`./letter-worker.js`);
 * - electron/letters/pages-worker.ts → dist/electron/pages-worker.js, the worker that reads
 *   and merges a print run's letters, started the same way (`./pages-worker.js`);
 * - electron/preload.ts → dist/electron/preload.cjs (one self-contained CommonJS file:
 *   Electron's sandboxed preload cannot load ES modules or other files; only `electron` is
 *   required), which main.ts loads by that name.
 * Run: `npm run build:electron` (or `node scripts/build-electron.mjs [outDir]`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function bundleElectron(outDir = path.join(ROOT, 'dist', 'electron')) {
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    absWorkingDir: ROOT,
  };
  const esm = { ...common, format: 'esm', packages: 'external' };
  const out = {
    main: path.join(outDir, 'main.js'),
    importWorker: path.join(outDir, 'job-worker.js'),
    letterWorker: path.join(outDir, 'letter-worker.js'),
    pagesWorker: path.join(outDir, 'pages-worker.js'),
    preload: path.join(outDir, 'preload.cjs'),
  };
  await build({ ...esm, entryPoints: [path.join(ROOT, 'electron', 'main.ts')], outfile: out.main });
  await build({
    ...esm,
    entryPoints: [path.join(ROOT, 'electron', 'server', 'imports', 'job-worker.ts')],
    outfile: out.importWorker,
  });
  await build({
    ...esm,
    entryPoints: [path.join(ROOT, 'electron', 'letters', 'render', 'letter-worker.ts')],
    outfile: out.letterWorker,
  });
  await build({
    ...esm,
    entryPoints: [path.join(ROOT, 'electron', 'letters', 'pages-worker.ts')],
    outfile: out.pagesWorker,
  });
  await build({
    ...common,
    entryPoints: [path.join(ROOT, 'electron', 'preload.ts')],
    outfile: out.preload,
    format: 'cjs',
    external: ['electron'],
  });
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await bundleElectron(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(
    `bundled ${Object.values(out)
      .map((f) => path.relative(ROOT, f))
      .join(', ')}`,
  );
}
