/**
 * Before the browser tests, once: builds dist/renderer when it is missing or stale, and
 * finds and launches Chromium (test/browser/chromium.ts; the npm build is unpacked here, on
 * first use), printing one line that says which one runs the tests.
 */
import { chromium } from 'playwright-core';
import { ensureRendererBuilt } from '../../electron/cli/renderer-build.ts';
import { CHROMIUM_ARGS, resolveChromium } from './chromium.ts';

export default async function setup(): Promise<void> {
  await ensureRendererBuilt({ log: (line) => process.stderr.write(`${line}\n`) });
  const c = resolveChromium();
  const browser = await chromium.launch({
    executablePath: c.executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
    ...(c.env ? { env: c.env } : {}),
  });
  const version = browser.version();
  await browser.close();
  process.stderr.write(`Browser tests: Chromium ${version}, ${c.describe}\n`);
}
