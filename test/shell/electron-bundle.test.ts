/**
 * The packaged shell's bundles (scripts/build-electron.mjs, run for real with esbuild): the
 * preload is one CommonJS file that requires nothing but `electron` and, run as Electron's
 * sandbox runs it, exposes the same API names as electron/preload.ts's contextBridge call;
 * main and the import worker import only packages (shipped in node_modules), and every file
 * main loads beside itself (the preload, the import worker) is in the bundle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without type declarations
import { bundleElectron } from '../../scripts/build-electron.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-bundle-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the Electron bundles', () => {
  it('bundle main as ESM and preload as one self-contained CommonJS file with the same bridge API', async () => {
    const out = (await bundleElectron(dir)) as {
      main: string;
      importWorker: string;
      letterWorker: string;
      pagesWorker: string;
      preload: string;
    };
    const main = fs.readFileSync(out.main, 'utf8');
    expect(main).toContain('preload.cjs');
    const code = fs.readFileSync(out.preload, 'utf8');
    expect(code).not.toMatch(/^\s*import[\s{*]/m);
    expect(code).not.toMatch(/\bimport\(/);
    expect(code).not.toMatch(/^\s*export\s/m);

    // Run it as Electron does: CommonJS, with `require` giving only electron.
    const required: string[] = [];
    const exposed: Record<string, Record<string, unknown>> = {};
    const electron = {
      contextBridge: {
        exposeInMainWorld: (name: string, api: Record<string, unknown>) => void (exposed[name] = api),
      },
      ipcRenderer: { invoke: async () => null },
    };
    const module = { exports: {} };
    vm.runInNewContext(code, {
      require: (id: string) => {
        required.push(id);
        if (id !== 'electron') throw new Error(`the preload requires ${id}: not self-contained`);
        return electron;
      },
      module,
      exports: module.exports,
    });
    expect(required).toEqual(['electron']);

    // The same names as the source's exposeInMainWorld('giftdesk', { … }).
    const source = fs.readFileSync(
      path.join(import.meta.dirname, '..', '..', 'electron', 'preload.ts'),
      'utf8',
    );
    const call = /exposeInMainWorld\('(\w+)',\s*\{([\s\S]*?)\}\s*satisfies/.exec(source);
    expect(call).not.toBeNull();
    const names = [...call![2]!.matchAll(/^\s*(\w+)\s*:/gm)].map((m) => m[1]).sort();
    expect(names.length).toBeGreaterThan(0);
    expect(Object.keys(exposed)).toEqual([call![1]]);
    expect(Object.keys(exposed[call![1]!]!).sort()).toEqual(names);
  }, 120_000);

  it('ship every file main loads beside itself, and import nothing else of ours', async () => {
    const out = (await bundleElectron(dir)) as {
      main: string;
      importWorker: string;
      letterWorker: string;
      pagesWorker: string;
      preload: string;
    };
    const main = fs.readFileSync(out.main, 'utf8');
    // main.ts's preload (path.join(import.meta.dirname, 'preload.cjs')) and the workers it
    // starts (startModuleWorker(import.meta.url, 'job-worker'): job-worker.js beside it once
    // built) must be there: the CSV import's, the letters' renderer and the letters' reader.
    const shipped = ['job-worker.js', 'letter-worker.js', 'pages-worker.js', 'preload.cjs'];
    const beside = [
      ...[...main.matchAll(/path\d*\.join\(import\.meta\.dirname,\s*"([^"]+)"\)/g)].map((m) => m[1]!),
      ...[...main.matchAll(/new URL\("\.\/([^"]+\.js)",/g)].map((m) => m[1]!),
      ...[...main.matchAll(/startModuleWorker\d*\(import\.meta\.url,\s*"([^"]+)"/g)].map(
        (m) => `${m[1]!}.js`,
      ),
    ].sort();
    expect(beside).toEqual(shipped);
    expect(beside.filter((f) => !shipped.includes(f))).toEqual([]);
    for (const file of beside) expect(fs.existsSync(path.join(dir, file)), file).toBe(true);
    // Relative imports would name files that are not shipped; packages come from node_modules.
    for (const file of [out.main, out.importWorker, out.letterWorker, out.pagesWorker]) {
      const specifiers = [
        ...fs
          .readFileSync(file, 'utf8')
          .matchAll(/^\s*import\b[^'"]*?from\s*"([^"]+)"|^\s*import\s*"([^"]+)"/gm),
      ].map((m) => m[1] ?? m[2]!);
      expect(specifiers.length).toBeGreaterThan(0);
      expect(specifiers.filter((s) => s.startsWith('.') || s.startsWith('/'))).toEqual([]);
    }
    expect(fs.readFileSync(out.importWorker, 'utf8')).toContain('parentPort');
    expect(fs.readFileSync(out.letterWorker, 'utf8')).toContain('parentPort');
    expect(fs.readFileSync(out.pagesWorker, 'utf8')).toContain('parentPort');
  }, 120_000);
});
