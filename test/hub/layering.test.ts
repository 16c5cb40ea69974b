/**
 * The event hub's place in the layers (eslint.config.js): the server and the CLI reach it
 * through electron/hub/index.ts only; it reaches the domain through the domain's surfaces and
 * knows nothing of HTTP, the CLI or sync; the domain knows nothing of it. Real ESLint over
 * source text placed at a path.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function layeringErrors(filePath: string, spec: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${spec}';\nexport const y = x;\n`, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.endsWith('no-restricted-imports'))
    .map((m) => m.message);
}

describe('the event hub in the layers', () => {
  it('the server and the CLI import it through its surface only', async () => {
    expect(await layeringErrors('electron/server/routes/example.ts', '../../hub/feed.ts')).toEqual([
      expect.stringContaining('electron/hub/index.ts'),
    ]);
    expect(await layeringErrors('electron/cli/example.ts', '../hub/pairing.ts')).toEqual([
      expect.stringContaining('electron/hub/index.ts'),
    ]);
    expect(await layeringErrors('electron/server/routes/example.ts', '../../hub/index.ts')).toEqual([]);
  });

  it('it imports the domain through its surfaces, and nothing of the server, the CLI or sync', async () => {
    expect(await layeringErrors('electron/hub/example.ts', '../domain/contacts/create.ts')).toEqual([
      expect.stringContaining("folder's index.ts"),
    ]);
    expect(await layeringErrors('electron/hub/example.ts', '../domain/contacts/index.ts')).toEqual([]);
    expect(await layeringErrors('electron/hub/example.ts', './feed.ts')).toEqual([]);
    for (const spec of ['../server/errors.ts', '../cli/output.ts', '../sync/index.ts'])
      expect((await layeringErrors('electron/hub/example.ts', spec)).length, spec).toBeGreaterThan(0);
  });

  it('the domain knows nothing of it', async () => {
    expect((await layeringErrors('electron/domain/contacts/example.ts', '../../hub/index.ts')).length).toBe(
      1,
    );
  });
});
