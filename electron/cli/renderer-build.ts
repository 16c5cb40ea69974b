/**
 * Builds the renderer (vite) when dist/renderer is missing or older than its sources:
 * `npm start` and the browser tests call this, so a fresh clone just works. "Older" is a
 * content hash of the inputs (renderer/, shared/, the vite and tsconfig files, package.json)
 * kept beside the output, so a git checkout that touches mtimes does not rebuild for nothing.
 * The build goes to a temp folder and replaces the old one whole; a lock keeps two
 * processes from building at once.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const RENDERER_DIST = path.join(REPO_ROOT, 'dist', 'renderer');
const STAMP = '.build-hash';
const INPUTS = [
  'renderer',
  'shared',
  'vite.config.ts',
  'tsconfig.renderer.json',
  'tsconfig.json',
  'package.json',
];

function listFiles(p: string, out: string[]): void {
  if (!fs.existsSync(p)) return;
  const st = fs.statSync(p);
  if (st.isFile()) {
    out.push(p);
    return;
  }
  for (const e of fs.readdirSync(p).sort())
    if (e !== 'node_modules' && !e.startsWith('.')) listFiles(path.join(p, e), out);
}

/** The hash of everything the renderer build reads from this repository. */
export function rendererSourceHash(root = REPO_ROOT): string {
  const h = createHash('sha256');
  const files: string[] = [];
  for (const i of INPUTS) listFiles(path.join(root, i), files);
  for (const f of files) {
    h.update(path.relative(root, f)).update('\0').update(fs.readFileSync(f)).update('\0');
  }
  return h.digest('hex');
}

export function isRendererBuildCurrent(dist = RENDERER_DIST, root = REPO_ROOT): boolean {
  try {
    return (
      fs.existsSync(path.join(dist, 'index.html')) &&
      fs.readFileSync(path.join(dist, STAMP), 'utf8') === rendererSourceHash(root)
    );
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5 * 60_000)
        fs.rmSync(lock, { recursive: true, force: true }); // a build that died
      else await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds dist/renderer unless it is current. Returns whether it built. */
export async function ensureRendererBuilt(opts: { log?: (line: string) => void } = {}): Promise<boolean> {
  if (isRendererBuildCurrent()) return false;
  return withLock(path.join(REPO_ROOT, 'dist', '.renderer-build.lock'), async () => {
    const hash = rendererSourceHash();
    if (isRendererBuildCurrent()) return false; // another process built it while we waited
    opts.log?.('Building the app screens (vite build)…');
    const { build } = await import('vite'); // a dev dependency: only loaded when a build is needed
    const tmp = `${RENDERER_DIST}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    // A production bundle whatever the caller's NODE_ENV (vitest sets "test", which would
    // otherwise ship React's development build).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: path.join(REPO_ROOT, 'vite.config.ts'),
        mode: 'production',
        logLevel: 'warn',
        build: { outDir: tmp, emptyOutDir: true },
      });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    fs.writeFileSync(path.join(tmp, STAMP), hash);
    fs.rmSync(RENDERER_DIST, { recursive: true, force: true });
    fs.renameSync(tmp, RENDERER_DIST);
    return true;
  });
}
