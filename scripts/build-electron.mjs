/**
 * Bundles the Electron shell for packaging with esbuild: electron/main.ts → dist/electron/main.js
 * (ESM, as package.json's "type": "module"; node_modules stay external, electron-builder ships
 * them) and electron/preload.ts → dist/electron/preload.cjs (one self-contained CommonJS file:
 * Electron's sandboxed preload cannot load ES modules or other files; only `electron` is required).
 * Run: `npm run build:electron` (or `node scripts/build-electron.mjs [outDir]`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function bundleElectron(outDir = path.join(ROOT, 'dist', 'electron')) {
  const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning', absWorkingDir: ROOT };
  await build({ ...common, entryPoints: [path.join(ROOT, 'electron', 'main.ts')], outfile: path.join(outDir, 'main.js'), format: 'esm', packages: 'external' });
  await build({ ...common, entryPoints: [path.join(ROOT, 'electron', 'preload.ts')], outfile: path.join(outDir, 'preload.cjs'), format: 'cjs', external: ['electron'] });
  return { main: path.join(outDir, 'main.js'), preload: path.join(outDir, 'preload.cjs') };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await bundleElectron(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`bundled ${path.relative(ROOT, out.main)} and ${path.relative(ROOT, out.preload)}`);
}
