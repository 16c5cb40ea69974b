/**
 * The giftdesk command as people and scripts run it: a child process of `node
 * bin/giftdesk.mjs`, with its own environment, over a temp data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './server.ts';

const BIN = path.resolve('bin/giftdesk.mjs');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * An environment in which the per-user default data folder is an empty temp "home", so a
 * command that ignored --data-dir and GIFTDESK_DATA_DIR would write there (and be caught).
 */
export function isolatedEnv(extra: Record<string, string> = {}): { env: NodeJS.ProcessEnv; home: string } {
  const home = tempDir('giftdesk-home-');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    APPDATA: path.join(home, 'AppData'),
    ...extra,
  };
  delete env.GIFTDESK_DATA_DIR;
  delete env.DATABASE_URL;
  for (const [k, v] of Object.entries(extra)) env[k] = v;
  return { env, home };
}

/** Files anywhere under a folder (to show a fake home stayed empty). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

/** Runs one command to completion (async, so several can run side by side). */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** stdout of a --json command: exactly one line holding one JSON object. */
export function oneJsonObject(r: CliResult): Record<string, unknown> {
  const lines = r.stdout.split('\n').filter((l) => l.length > 0);
  if (lines.length !== 1)
    throw new Error(`expected one line on stdout, got ${lines.length}:\n${r.stdout}\nstderr:\n${r.stderr}`);
  const value: unknown = JSON.parse(lines[0]!);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`stdout is not a JSON object: ${r.stdout}`);
  return value as Record<string, unknown>;
}

/** Runs a --json command that must succeed, and returns its one object. */
export async function cliJson(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const r = await runCli([...args, '--json'], env);
  if (r.status !== 0) throw new Error(`giftdesk ${args.join(' ')} exited ${r.status}\n${r.stderr}`);
  return oneJsonObject(r);
}

export interface ServeChild {
  url: string;
  /** With --ui: the app link with its one-time token, as printed. */
  appUrl?: string;
  child: ChildProcess;
  /** Everything written to stderr so far (the JSON log lines). */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  /** Resolves when stderr contains a line matching `re` `count` times. */
  waitForLog(re: RegExp, count?: number): Promise<void>;
}

/** `giftdesk serve --port 0 --json …`: resolves once it printed its {"url"} line. */
export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeChild> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ re: RegExp; count: number; done: () => void }> = [];
  const checkWaiters = () => {
    for (const w of [...waiters]) {
      const n = stderr.split('\n').filter((l) => w.re.test(l)).length;
      if (n >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done();
      }
    }
  };
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    checkWaiters();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf('\n');
      if (nl < 0) return;
      try {
        const { url, appUrl } = JSON.parse(stdout.slice(0, nl)) as { url: string; appUrl?: string };
        resolve({
          url,
          ...(appUrl ? { appUrl } : {}),
          child,
          stderr: () => stderr,
          exited,
          waitForLog: (re, count = 1) =>
            new Promise<void>((done, fail) => {
              waiters.push({ re, count, done });
              checkWaiters();
              void exited.then((code) =>
                fail(
                  new Error(`serve exited (${code}) before logging ${re} ×${count}\n${stderr.slice(-2000)}`),
                ),
              );
            }),
        });
      } catch (err) {
        reject(new Error(`serve printed something other than {"url"}: ${stdout}\n${String(err)}`));
      }
    });
    void exited.then((code) =>
      reject(new Error(`serve exited (${code}) before printing its url\n${stderr.slice(-2000)}`)),
    );
  });
}
