/**
 * The desktop package, built for real: `npm run package -- --dir --linux` (scripts/package.mjs:
 * the renderer and shell builds, then electron-builder, pinned in devDependencies) against a
 * stand-in Electron directory — electron-builder's `electronDist`, the one input that cannot
 * be downloaded on every machine — and `--skip-rebuild` (rebuilding better-sqlite3 for
 * Electron needs Electron's headers from the internet). What is checked is what a packaged
 * app needs to start: app.asar holds the shell's three bundles and the screens, package.json's
 * `main` resolves inside it, every package the bundles import is shipped, better-sqlite3's
 * native file is unpacked beside the archive (a .node file cannot load from inside one), and
 * no development tool is shipped.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import asar from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-package-'));
const standIn = path.join(work, 'electron-dist');
const out = path.join(work, 'release');
const resources = path.join(out, 'linux-unpacked', 'resources');
const archive = path.join(resources, 'app.asar');
let files: Set<string>;

beforeAll(async () => {
  fs.mkdirSync(standIn);
  fs.writeFileSync(path.join(standIn, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary"\n', {
    mode: 0o755,
  });
  fs.writeFileSync(path.join(standIn, 'LICENSE'), 'stand-in\n');
  await exec(
    'node',
    ['scripts/package.mjs', '--dir', '--linux', '--electron-dist', standIn, '--out', out, '--skip-rebuild'],
    {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  files = new Set(
    asar.listPackage(archive, { isPack: false }).map((f) => f.split(path.sep).join('/').replace(/^\//, '')),
  );
}, 240_000);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const readInArchive = (file: string) => asar.extractFile(archive, file).toString('utf8');

describe('the packaged desktop app (electron-builder --dir)', () => {
  it('puts the stand-in Electron binary in place under the product name', () => {
    const exe = path.join(out, 'linux-unpacked', 'giftdesk');
    expect(fs.existsSync(exe)).toBe(true);
    expect(fs.readFileSync(exe, 'utf8')).toContain('stand-in');
  });

  it("holds the shell's bundles and the screens, and package.json's main resolves inside app.asar", () => {
    for (const f of [
      'dist/electron/main.js',
      'dist/electron/preload.cjs',
      'dist/electron/job-worker.js',
      'dist/electron/letter-worker.js',
      'dist/electron/pages-worker.js',
      'dist/renderer/index.html',
    ]) {
      expect(files.has(f), f).toBe(true);
    }
    const pkg = JSON.parse(readInArchive('package.json')) as { main: string };
    expect(files.has(path.posix.normalize(pkg.main))).toBe(true);
    // Every script and style the screens' index.html loads is in the archive.
    const html = readInArchive('dist/renderer/index.html');
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map(
      (m) => `dist/renderer/${m[1]}`,
    );
    expect(assets.length).toBeGreaterThan(0);
    for (const a of assets) expect(files.has(a), a).toBe(true);
  });

  it('ships every package the bundles import, and no development tool', () => {
    const bare = new Set<string>();
    for (const bundle of [
      'dist/electron/main.js',
      'dist/electron/job-worker.js',
      'dist/electron/letter-worker.js',
      'dist/electron/pages-worker.js',
    ]) {
      const code = readInArchive(bundle);
      for (const m of code.matchAll(
        /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"'./][^"']*)["']|import\(\s*["']([^"'./][^"']*)["']\s*\)/gm,
      )) {
        const spec = m[1] ?? m[2]!;
        if (spec.startsWith('node:') || spec === 'electron') continue;
        bare.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    expect(bare.size).toBeGreaterThan(3);
    for (const p of bare) expect(files.has(`node_modules/${p}/package.json`), `node_modules/${p}`).toBe(true);
    for (const dev of [
      'vitest',
      'playwright-core',
      'electron',
      'electron-builder',
      'typescript',
      'vite',
      'eslint',
    ]) {
      expect(files.has(`node_modules/${dev}/package.json`), `${dev} must not be shipped`).toBe(false);
    }
  });

  it("unpacks better-sqlite3's native file beside the archive", () => {
    const native = path.join(
      resources,
      'app.asar.unpacked',
      'node_modules',
      'better-sqlite3',
      'build',
      'Release',
      'better_sqlite3.node',
    );
    expect(fs.statSync(native).size).toBeGreaterThan(100_000);
    // The archive lists it as unpacked, so Electron reads it from the folder, not the archive.
    const header = asar.statFile(
      archive,
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    ) as { unpacked?: boolean };
    expect(header.unpacked).toBe(true);
  });
});
