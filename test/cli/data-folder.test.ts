/**
 * A script writer's first minute with the command line, from a checkout: run without the data
 * folder the app uses, a command that needs an existing account says which folder (and
 * database) it looked in and how to point at the right one (--data-dir, GIFTDESK_DATA_DIR),
 * and leaves no empty database behind; pointed at the right folder, the same command works.
 * `serve --ui` tells the app's window the folder to name to the command line (Settings →
 * API keys shows the command), and names none when it is the per-user default.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliJson, filesUnder, isolatedEnv, runCli, startServe, type ServeChild } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';

const cleanup: string[] = [];
const children: ServeChild[] = [];
afterAll(() => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = tempDir('giftdesk-cli-folder-');
  cleanup.push(d);
  return d;
}
function env(extra: Record<string, string> = {}) {
  const e = isolatedEnv(extra);
  cleanup.push(e.home);
  return e;
}

describe('a command pointed at the wrong data folder', () => {
  it('names the folder and database it looked in, says how to point at the right one, and creates nothing', async () => {
    const { env: e, home } = env(); // no --data-dir, no GIFTDESK_DATA_DIR: the per-user default
    const defaultDir = path.join(home, '.config', 'GiftDesk');
    const commands = [
      ['key', 'create', '--account', 'acct_from_the_banner', '--label', 'nightly import'],
      ['campaign', 'create', '--account', 'acct_from_the_banner', '--name', 'Gala'],
      ['export', 'contacts', '--account', 'acct_from_the_banner'],
      ['flags', '--account', 'acct_from_the_banner'],
      ['sync', 'status'],
      ['key', 'revoke', '--key', 'gdk_nope'],
    ];
    for (const args of commands) {
      const what = `giftdesk ${args.join(' ')}`;
      const human = await runCli(args, e);
      expect(human.status, `${what}\n${human.stderr}`).toBe(66);
      expect(human.stdout, what).toBe('');
      expect(human.stderr, what).toContain(`There is no GiftDesk database in the data folder ${defaultDir}`);
      expect(human.stderr, what).toContain(path.join(defaultDir, 'giftdesk.sqlite'));
      expect(human.stderr, what).toMatch(/--data-dir <folder>/);
      expect(human.stderr, what).toMatch(/GIFTDESK_DATA_DIR=<folder>/);
      expect(human.stderr, what).not.toMatch(/\n\s+at /);
    }
    const json = await runCli([...commands[0]!, '--json'], e);
    expect(json.status).toBe(66);
    expect(JSON.parse(json.stderr).error.code).toBe('database_not_found');
    // No empty database (nor folder) was made as a side effect.
    expect(filesUnder(home)).toEqual([]);
    expect(fs.existsSync(defaultDir)).toBe(false);
  });

  it('an account missing from the folder it looked in is said with that folder; the right folder works', async () => {
    const eventFolder = dir(); // where the app runs (npm start -- --data-dir …)
    const otherFolder = dir(); // where the script ended up
    const { env: e } = env();
    const { id: accountId } = (await cliJson(
      ['account', 'create', '--name', 'Łódź Arts Fund', '--data-dir', eventFolder],
      e,
    )) as { id: string };
    await cliJson(['account', 'create', '--name', 'Another org', '--data-dir', otherFolder], e);

    const wrong = await runCli(['key', 'create', '--account', accountId, '--data-dir', otherFolder], e);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(
      `Account ${accountId} was not found in the data folder ${otherFolder} (database ${path.join(otherFolder, 'giftdesk.sqlite')})`,
    );
    expect(wrong.stderr).toMatch(
      /--data-dir <folder>, or the environment variable GIFTDESK_DATA_DIR=<folder>/,
    );
    const wrongJson = await runCli(
      ['key', 'create', '--account', accountId, '--data-dir', otherFolder, '--json'],
      e,
    );
    expect(JSON.parse(wrongJson.stderr).error).toMatchObject({
      code: 'account_not_found',
      details: [{ field: 'accountId', issue: 'does not exist' }],
    });

    // Through the environment variable, as the message says: the key is made.
    const made = await cliJson(['key', 'create', '--account', accountId], {
      ...e,
      GIFTDESK_DATA_DIR: eventFolder,
    });
    expect(made.keyId).toMatch(/^gdk_/);
  });
});

describe('serve --ui tells the app which folder to name to the command line', () => {
  const sessionOf = async (s: ServeChild, token: string) =>
    rawRequest(`${s.url}/api/v1/browser-session`, 'POST', { token });
  const tokenOf = (s: ServeChild) => {
    const m = /#token=(gdt_[\w-]+)/.exec(s.appUrl ?? '');
    if (!m) throw new Error(`no app link printed: ${s.appUrl}`);
    return m[1]!;
  };

  it('a folder given with --data-dir or GIFTDESK_DATA_DIR is named; the per-user default is not', async () => {
    const given = dir();
    const byEnv = dir();
    const { env: e, home } = env();
    const cases: Array<{ args: string[]; env: NodeJS.ProcessEnv; expected: string | null }> = [
      { args: ['--data-dir', given], env: e, expected: given },
      { args: [], env: { ...e, GIFTDESK_DATA_DIR: byEnv }, expected: byEnv },
      { args: [], env: e, expected: null },
    ];
    for (const c of cases) {
      const s = await startServe(['--ui', '--no-sync', ...c.args], c.env);
      children.push(s);
      try {
        const r = await sessionOf(s, tokenOf(s));
        expect(r.status, r.text).toBe(201);
        expect(r.body.dataDir).toBe(c.expected);
      } finally {
        s.child.kill('SIGINT');
        await s.exited;
      }
    }
    // The default case served the per-user folder itself (created there, as serve may).
    expect(filesUnder(home).some((f) => f.endsWith(path.join('GiftDesk', 'giftdesk.sqlite')))).toBe(true);
  });
});
