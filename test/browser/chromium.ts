/**
 * Which Chromium the browser tests and `bench` part `ui` drive, in this order:
 * 1. `GIFTDESK_CHROMIUM` (a path), when set;
 * 2. the build shipped in the `@sparticuz/chromium` npm package (a devDependency), on the
 *    platform it is built for (Linux x64): a headless shell with its own NSS libraries and
 *    font (Open Sans), unpacked on first use into `<tmpdir>/giftdesk-chromium-<version>-x64`;
 * 3. the system's Chromium (`/usr/bin/chromium`, Debian's package).
 *
 * The package's own `executablePath()` unpacks into `<tmpdir>/chromium` and reuses whatever
 * binary is already there, whichever version unpacked it. So it runs here in a child process
 * whose temp folder is a fresh staging folder, renamed into the folder named by the package
 * version once complete: a folder of that name is always that version, whole, and two
 * processes unpacking at once cannot hand either one a half-written binary.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** The same flags for every build. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** The platforms the npm package ships a build for (its one binary is x86-64 Linux). */
export const NPM_BUILD_PLATFORMS: ReadonlyArray<{ platform: NodeJS.Platform; arch: string }> = [
  { platform: 'linux', arch: 'x64' },
];

export type ChromiumSource = 'GIFTDESK_CHROMIUM' | 'npm' | 'system';

export interface ChromiumLookup {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  /** Whether the npm package is installed (node_modules/@sparticuz/chromium). */
  npmBuildInstalled: boolean;
  exists(file: string): boolean;
}

/** The lookup order, without side effects: which build to use, or why there is none. */
export function chooseChromium(
  l: ChromiumLookup,
): { source: ChromiumSource; path?: string } | { source: null; why: string } {
  const fromEnv = l.env.GIFTDESK_CHROMIUM;
  if (fromEnv) return { source: 'GIFTDESK_CHROMIUM', path: fromEnv };
  const npmPlatform = NPM_BUILD_PLATFORMS.some((p) => p.platform === l.platform && p.arch === l.arch);
  if (npmPlatform && l.npmBuildInstalled) return { source: 'npm' };
  if (l.exists(SYSTEM_CHROMIUM)) return { source: 'system', path: SYSTEM_CHROMIUM };
  const npmWhy = npmPlatform
    ? '@sparticuz/chromium is not installed (run npm install)'
    : `@sparticuz/chromium has no build for ${l.platform}-${l.arch}`;
  return {
    source: null,
    why: `no Chromium: GIFTDESK_CHROMIUM is not set, ${npmWhy}, and ${SYSTEM_CHROMIUM} does not exist (install your system's chromium, or set GIFTDESK_CHROMIUM to a Chromium binary)`,
  };
}

export interface ResolvedChromium {
  source: ChromiumSource;
  executablePath: string;
  /** What to say in the test output. */
  describe: string;
  /** The browser process's environment (the npm build's libraries and fonts). */
  env?: Record<string, string>;
}

const require = createRequire(import.meta.url);

function npmPackage(): { dir: string; version: string } | null {
  try {
    const entry = require.resolve('@sparticuz/chromium');
    let dir = path.dirname(entry);
    while (
      !fs.existsSync(path.join(dir, 'package.json')) ||
      JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== '@sparticuz/chromium'
    ) {
      const up = path.dirname(dir);
      if (up === dir) return null;
      dir = up;
    }
    return {
      dir,
      version: (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
        .version,
    };
  } catch {
    return null;
  }
}

/** Unpacks the npm build (once per version) and returns its folder. */
function unpackNpmBuild(pkg: { dir: string; version: string }): string {
  const dir = path.join(os.tmpdir(), `giftdesk-chromium-${pkg.version}-${process.arch}`);
  if (fs.existsSync(path.join(dir, 'chromium'))) return dir;
  const staging = fs.mkdtempSync(`${dir}.unpacking-`);
  try {
    const esm = pathToFileURL(path.join(pkg.dir, 'build', 'esm', 'index.js')).href;
    // AWS_EXECUTION_ENV makes the package unpack its NSS libraries too (al2023/lib), which a
    // bare machine does not have; the variable lives in this child only.
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { default: c } = await import(${JSON.stringify(esm)}); process.stdout.write(await c.executablePath());`,
      ],
      {
        env: {
          ...process.env,
          TMPDIR: staging,
          TMP: staging,
          TEMP: staging,
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x',
        },
        encoding: 'utf8',
      },
    );
    const binary = path.join(staging, 'chromium');
    if (
      r.status !== 0 ||
      r.stdout !== binary ||
      !fs.existsSync(path.join(staging, 'al2023', 'lib', 'libnss3.so'))
    ) {
      throw new Error(
        `unpacking @sparticuz/chromium ${pkg.version} into ${staging} failed (exit ${r.status}): ${r.stderr || r.stdout}`,
      );
    }
    // Its own fonts only (the package's Open Sans), so a page looks the same on every machine.
    fs.writeFileSync(
      path.join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(dir, 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    try {
      fs.renameSync(staging, dir);
    } catch (err) {
      // Another process finished first: its folder is the same version, whole.
      if (!fs.existsSync(path.join(dir, 'chromium'))) throw err;
      fs.rmSync(staging, { recursive: true, force: true });
    }
    return dir;
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

let resolved: ResolvedChromium | null = null;

/** The Chromium to launch (unpacking the npm build on first use). Throws when there is none. */
export function resolveChromium(): ResolvedChromium {
  if (resolved) return resolved;
  const pkg = npmPackage();
  const choice = chooseChromium({
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    npmBuildInstalled: pkg !== null,
    exists: (f) => fs.existsSync(f),
  });
  if (choice.source === null) throw new Error(choice.why);
  if (choice.source === 'npm') {
    const dir = unpackNpmBuild(pkg!);
    const libs = path.join(dir, 'al2023', 'lib');
    resolved = {
      source: 'npm',
      executablePath: path.join(dir, 'chromium'),
      describe: `the npm build (@sparticuz/chromium ${pkg!.version}, unpacked in ${dir})`,
      env: {
        ...(Object.fromEntries(
          Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
        ) as Record<string, string>),
        LD_LIBRARY_PATH: [libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
        FONTCONFIG_FILE: path.join(dir, 'fonts.conf'),
      },
    };
  } else {
    resolved = {
      source: choice.source,
      executablePath: choice.path!,
      describe:
        choice.source === 'system'
          ? `the system's Chromium (${choice.path})`
          : `GIFTDESK_CHROMIUM (${choice.path})`,
    };
  }
  return resolved;
}
