/**
 * The house's rules as the linter holds them (eslint.config.js): the server, the CLI, the
 * shell and main.ts reach sync and the domain only through their stated surfaces —
 * electron/sync/index.ts, electron/domain/index.ts, a domain folder's index.ts — and the
 * lower layers never import the upper ones; and files and functions stay at sizes a reader can
 * hold (400 lines a file, 120 lines of a function's own). Real ESLint over source text placed
 * at a path.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.endsWith('no-restricted-imports'))
    .map((m) => m.message);
}

describe('surfaces', () => {
  it('refuses a server or CLI import of a sync file past electron/sync/index.ts', async () => {
    const server = await layeringErrors(
      'electron/server/routes/example.ts',
      "import { syncStatus } from '../../sync/status/status.ts';\nexport const s = syncStatus;\n",
    );
    expect(server).toEqual([expect.stringContaining('electron/sync/index.ts')]);
    const cli = await layeringErrors(
      'electron/cli/example.ts',
      "import { scheduler } from '../sync/scheduler.ts';\nexport const s = scheduler;\n",
    );
    expect(cli).toEqual([expect.stringContaining('electron/sync/index.ts')]);
  });

  it("refuses a server, CLI or shell import of a domain file past its folder's index.ts", async () => {
    for (const [filePath, spec] of [
      ['electron/server/routes/example.ts', '../../domain/contacts/create.ts'],
      ['electron/cli/example.ts', '../domain/limits/flags.ts'],
      ['electron/shell/example.ts', '../domain/context.ts'],
      ['electron/cli/demo/example.ts', '../../domain/reference/records.ts'],
    ] as const) {
      const errors = await layeringErrors(filePath, `import { x } from '${spec}';\nexport const y = x;\n`);
      expect(errors, `${filePath} importing ${spec}`).toEqual([expect.stringContaining("folder's index.ts")]);
    }
  });

  it('lets them import the surfaces', async () => {
    const code = [
      "import { syncStatus } from '../../sync/index.ts';",
      "import { createContext } from '../../domain/index.ts';",
      "import { createContact } from '../../domain/contacts/index.ts';",
      'export const all = [syncStatus, createContext, createContact];',
      '',
    ].join('\n');
    expect(await layeringErrors('electron/server/routes/example.ts', code)).toEqual([]);
  });

  it('sync and the domain import their own files directly; the domain never imports sync or the server', async () => {
    expect(
      await layeringErrors(
        'electron/sync/push/example.ts',
        "import { x } from '../outbox/outbox.ts';\nimport { y } from '../../domain/contacts/create.ts';\nexport const z = [x, y];\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'electron/domain/contacts/example.ts',
        "import { x } from '../../sync/index.ts';\nexport const z = x;\n",
      ),
    ).toEqual([expect.stringContaining('domain/ knows nothing of HTTP, sync')]);
  });
});

describe('sizes a reader can hold', () => {
  const errorsOf = async (filePath: string, code: string, rule: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
  };
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

  it('refuses a function of over 120 lines of its own, counting the functions inside it apart', async () => {
    const long = `export function long() {\n${body(125)}\n  return 0;\n}\n`;
    expect(await errorsOf('electron/server/example.ts', long, 'house/max-own-lines')).toEqual([
      expect.stringContaining('function long has 128 lines of its own'),
    ]);
    // 60 lines of its own around a 90-line helper: neither is over.
    const nested = `export function outer() {\n${body(58)}\n  const helper = () => {\n${body(88)}\n  };\n  return helper;\n}\n`;
    expect(await errorsOf('electron/server/example.ts', nested, 'house/max-own-lines')).toEqual([]);
    // Tests are not held to it.
    expect(await errorsOf('test/api/example.test.ts', long, 'house/max-own-lines')).toEqual([]);
  });

  it('refuses a file of over 400 lines outside tests and migrations', async () => {
    const big = `${body(401)}\nexport {};\n`;
    expect(await errorsOf('electron/domain/example.ts', big, 'max-lines')).toHaveLength(1);
    expect(await errorsOf('electron/db/migrations/2099-01-01T0000-example.ts', big, 'max-lines')).toEqual([]);
  });
});
