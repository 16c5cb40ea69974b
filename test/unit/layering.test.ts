/**
 * The house's rules as the linter holds them (eslint.config.js): the server, the CLI, the
 * shell and main.ts reach sync and the domain only through their stated surfaces —
 * electron/sync/index.ts, electron/domain/index.ts, a domain folder's index.ts — and the
 * lower layers never import the upper ones. Real ESLint over source text placed at a path.
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
