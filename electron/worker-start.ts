/**
 * Starting one of GiftDesk's worker threads from its module beside the caller. Built (Electron's
 * bundle), that is the `.js` file beside it. Run from the TypeScript sources (`giftdesk serve`,
 * tests, benches), the worker's own code is first bundled into one ES module with esbuild (the
 * one tsx brings), packages left to node_modules, and cached by its content under
 * node_modules/.cache: a worker that loaded its modules through tsx would register tsx's loader
 * again, on a thread of its own, and load each module whole, where the bundle keeps only what
 * the worker uses (a letters reader: 70 MiB of the process's memory through tsx, 39 bundled).
 * Should bundling fail, the worker boots through tsx as before.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM loader API, for a worker started from TypeScript sources. */
function tsxEsmApi(from: string): string {
  const pkgFile = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

interface EsbuildApi {
  buildSync(options: Record<string, unknown>): { outputFiles?: { text: string }[] };
}

/** The worker's bundle, by its source file (once per process). */
const bundles = new Map<string, string>();

/**
 * The bundle of `entry` (a .ts file) as a file under node_modules/.cache, where its packages
 * resolve: written once per content (a temporary name, then renamed), so processes starting the
 * same worker at once share it.
 */
function bundled(entry: string): string {
  const known = bundles.get(entry);
  if (known) return known;
  // tsx's own esbuild: there whenever the sources run.
  const req = createRequire(createRequire(entry).resolve('tsx/package.json'));
  const esbuild = req('esbuild') as EsbuildApi;
  const out = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const text = out.outputFiles?.[0]?.text;
  if (!text) throw new Error(`esbuild gave no output for ${path.basename(entry)}`);
  const modules = path.dirname(path.dirname(createRequire(entry).resolve('tsx/package.json')));
  const dir = path.join(modules, '.cache', 'giftdesk-workers');
  const hash = crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = path.join(dir, `${path.basename(entry, '.ts')}-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  }
  bundles.set(entry, file);
  return file;
}

/**
 * A worker running `name` (its file name without the extension), found beside `here` (the
 * caller's `import.meta.url`).
 */
export function startModuleWorker(here: string, name: string, options: WorkerOptions = {}): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const entry = new URL(`./${name}.ts`, here);
  try {
    return new Worker(pathToFileURL(bundled(fileURLToPath(entry))), options);
  } catch (err) {
    process.emitWarning(`the ${name} worker could not be bundled (${String(err)}); starting it through tsx`);
  }
  const boot = `import { register } from ${JSON.stringify(tsxEsmApi(here))}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}
