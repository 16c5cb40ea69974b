/**
 * Starting one of GiftDesk's worker threads from its module beside the caller: the built
 * `.js` file as it is, or, when GiftDesk runs from its TypeScript sources (tests, benches,
 * `npm start`), a small boot module that registers tsx's loader first.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM loader API, for a worker started from TypeScript sources. */
function tsxEsmApi(from: string): string {
  const pkgFile = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

/**
 * A worker running `name` (its file name without the extension), found beside `here` (the
 * caller's `import.meta.url`).
 */
export function startModuleWorker(here: string, name: string, options: WorkerOptions = {}): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const entry = new URL(`./${name}.ts`, here).href;
  const boot = `import { register } from ${JSON.stringify(tsxEsmApi(here))}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}
