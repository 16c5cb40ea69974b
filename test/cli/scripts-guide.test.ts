/**
 * The scripts guide's "API in one minute" (docs/scripts.md) runs as written: its shell lines, in order, against a
 * real server (the CLI in a child process, curl over real HTTP), each `…` id replaced with the
 * one the step before printed, as a script author would. The gift is created: 201.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, startServe, type ServeChild } from '../helpers/cli.ts';
import { tempDir } from '../helpers/server.ts';

const BIN = path.resolve('bin/giftdesk.mjs');
let server: ServeChild | undefined;
afterAll(() => {
  server?.child.kill('SIGKILL');
});

/** The commands of the first ```sh block of a docs/scripts.md section: continuation lines joined, comments dropped. */
function shellCommands(readme: string, heading: string): string[] {
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/scripts.md has no "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error(`no sh block under "${heading}"`);
  return block[1]!
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function sh(
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { env, maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({
        code: err ? Number((err as NodeJS.ErrnoException & { code?: unknown }).code ?? 1) : 0,
        stdout,
        stderr,
      });
    });
  });
}

const ID = /^(acct|gdk|gds|cmp|cmt|dac|cnt|don)_/;

describe('docs/scripts.md: the API in one minute', () => {
  it(
    'runs line by line against a real server: account, key, campaign, donor, then a gift answered 201',
    { timeout: 180_000 },
    async () => {
      const readme = fs.readFileSync('docs/scripts.md', 'utf8');
      const commands = shellCommands(readme, '## The API in one minute');
      expect(
        commands.some((c) => /POST \S*\/api\/v1\/donations/.test(c)),
        'the walk-through creates a gift',
      ).toBe(true);

      const dataDir = tempDir('giftdesk-readme-');
      const { env } = isolatedEnv({ GIFTDESK_DATA_DIR: dataDir });
      server = await startServe(['--data-dir', dataDir], env);
      const ids = new Map<string, string>();
      const remember = (value: unknown): void => {
        if (typeof value === 'string') {
          const m = ID.exec(value);
          if (m && !ids.has(m[1]!)) ids.set(m[1]!, value);
        } else if (value && typeof value === 'object') for (const v of Object.values(value)) remember(v);
      };

      const statuses: Array<{ command: string; status: number; body: string }> = [];
      for (const written of commands) {
        // What the reader does: paste the ids printed so far, point at this server.
        let command = written.replace(/\b(acct|gdk|gds|cmp|cmt|dac|cnt|don)_…/g, (whole, prefix: string) => {
          const id = ids.get(prefix);
          if (!id) throw new Error(`"${written}" needs a ${prefix}_ id that no earlier step printed`);
          return id;
        });
        command = command
          .replace(/^npx giftdesk /, `"${process.execPath}" "${BIN}" `)
          .replaceAll('http://127.0.0.1:4870', server.url);
        const isCurl = command.startsWith('curl ');
        const r = await sh(isCurl ? `${command} -w '\\n%{http_code}'` : command, env);
        expect(r.code, `${written}\n${r.stderr}`).toBe(0);
        let body = r.stdout;
        if (isCurl) {
          const lines = r.stdout.trimEnd().split('\n');
          const status = Number(lines.pop());
          body = lines.join('\n');
          statuses.push({ command: written, status, body });
          expect(status, `${written}\n${body}`).toBeLessThan(300);
        }
        remember(JSON.parse(body));
      }
      const gift = statuses.find((s) => /\/api\/v1\/donations/.test(s.command));
      expect(gift?.status).toBe(201);
      expect(ids.get('don')).toMatch(/^don_/);
      // What the last step read back: the donor typed with accents, found without them.
      const search = statuses.at(-1)!;
      expect(search.command).toMatch(/search=zoe/);
      const found = JSON.parse(search.body) as {
        total: number;
        data: Array<{ id: string; firstName: string }>;
      };
      expect(found.data.map((c) => [c.id, c.firstName])).toEqual([[ids.get('cnt'), 'Zoë']]);
    },
  );
});
