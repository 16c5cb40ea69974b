/** Builds dist/renderer once before the browser tests, when it is missing or stale. */
import { ensureRendererBuilt } from '../../electron/cli/renderer-build.ts';

export default async function setup(): Promise<void> {
  await ensureRendererBuilt({ log: (line) => process.stderr.write(`${line}\n`) });
}
