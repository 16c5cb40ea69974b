/**
 * The browser-test harness: a real GiftDesk server (temp SQLite file) serving the built
 * renderer, Chromium (test/browser/chromium.ts says which) driven by playwright-core, the app opened through a one-time
 * link exactly as a user opens it, an axe-core scan that fails on a violation of any impact
 * (expectNoA11yViolations), screenshots written to test-artifacts/screenshots/<name>.png, and
 * requestGate, which holds chosen requests at the browser (or answers them there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { REPO_ROOT } from '../../electron/cli/renderer-build.ts';
import { type AppServer } from '../helpers/app-server.ts';
import { DOC_IMAGES } from './doc-images.ts';
import { CHROMIUM_ARGS, resolveChromium } from './chromium.ts';

export { CHROMIUM_ARGS };
export { startAppServer, type AppServer } from '../helpers/app-server.ts';
export { freePort } from '../helpers/free-port.ts';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-artifacts', 'screenshots');

/** Launches the Chromium that resolveChromium() chose, with the project's flags. */
export function launchChromium(): Promise<Browser> {
  const c = resolveChromium();
  return chromium.launch({
    executablePath: c.executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
    ...(c.env ? { env: c.env } : {}),
  });
}

export interface OpenedApp {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations seen so far (a clean app has none). */
  problems: string[];
}

/** Opens the app in a fresh browser context through a one-time link, and waits for the shell. */
export async function openApp(
  browser: Browser,
  server: Pick<AppServer, 'appLink'>,
  opts: { viewport?: { width: number; height: number } } = {},
): Promise<OpenedApp> {
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1366, height: 900 },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(server.appLink());
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return { context, page, problems };
}

/** An answer given at the browser instead of the server's (`route.fulfill`'s options). */
export type BrowserAnswer = NonNullable<Parameters<Route['fulfill']>[0]>;

/**
 * A gate on the page's requests to `url` (`method`: that method's only), at the browser. Open
 * at first: they pass. `hold()`: they wait at the browser until `release()`, so a test of an
 * answer that arrives late holds however fast or slow the machine is. `answer(a)`: the browser
 * answers them with `a` instead of the server until `release()`. `release()` lets the held
 * ones through (a request the page has cancelled meanwhile is skipped) and opens the gate.
 *
 * Its route is installed once, here, and stays as long as the page: removing a page's last
 * route (`page.unroute`) turns the browser's request interception off, and a request the page
 * sends in that moment stays paused for good, neither sent nor failed.
 */
export interface RequestGate {
  hold(): void;
  answer(answer: BrowserAnswer): void;
  release(): Promise<void>;
}

export async function requestGate(
  page: Page,
  url: string | RegExp | ((url: URL) => boolean),
  opts: { method?: string } = {},
): Promise<RequestGate> {
  let mode: { kind: 'open' } | { kind: 'hold' } | { kind: 'answer'; answer: BrowserAnswer } = {
    kind: 'open',
  };
  const held: Route[] = [];
  await page.route(url, async (route) => {
    const gated = !opts.method || route.request().method() === opts.method;
    if (gated && mode.kind === 'hold') held.push(route);
    else if (gated && mode.kind === 'answer') await route.fulfill(mode.answer);
    else await route.continue();
  });
  return {
    hold: () => {
      mode = { kind: 'hold' };
    },
    answer: (answer) => {
      mode = { kind: 'answer', answer };
    },
    release: async () => {
      mode = { kind: 'open' };
      await Promise.all(held.splice(0).map((r) => r.continue().catch(() => undefined)));
    },
  };
}

let axeSource: string | null = null;

type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical';

/** Runs axe-core on the page; fails listing every violation of one of `impacts`. */
async function expectNoA11yViolationsOf(
  page: Page,
  what: string,
  impacts: readonly AxeImpact[],
): Promise<void> {
  axeSource ??= fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, not a <script> tag: the app's CSP (rightly) refuses inline scripts.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(
          ctx: Document,
          opts: object,
        ): Promise<{
          violations: Array<{
            id: string;
            impact: string | null;
            help: string;
            nodes: Array<{ target: unknown[]; failureSummary?: string }>;
          }>;
        }>;
      };
    };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`),
    }));
  });
  // A violation axe gives no impact is counted as serious: it is never let through unseen.
  const found = violations.filter((v) => (impacts as readonly string[]).includes(v.impact ?? 'serious'));
  if (found.length > 0) {
    const text = found
      .map((v) => `- [${v.impact}] ${v.id}: ${v.help}\n    ${v.nodes.join('\n    ')}`)
      .join('\n');
    throw new Error(`axe-core found ${found.length} ${impacts.join('/')} violation(s) on ${what}:\n${text}`);
  }
}

/** Runs axe-core on the page; fails listing every violation, of any impact (minor included). */
export function expectNoA11yViolations(page: Page, what: string): Promise<void> {
  return expectNoA11yViolationsOf(page, what, ['minor', 'moderate', 'serious', 'critical']);
}

/** Writes test-artifacts/screenshots/<name>.png (the whole page) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env.GIFTDESK_DOCS_IMAGES === '1' && (DOC_IMAGES as readonly string[]).includes(name)) {
    fs.mkdirSync(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
    fs.copyFileSync(file, path.join(REPO_ROOT, 'docs', 'images', `${name}.png`));
  }
  return file;
}

/**
 * POSTs to `url` counted; the first reaches GiftDesk and is done there, and its answer is cut
 * (a connection reset: the hub's Wi-Fi dropped); every later one goes through.
 */
export async function cutFirstAnswer(page: Page, url: string): Promise<{ count: number }> {
  const posts = { count: 0 };
  await page.route(url, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts.count++;
    if (posts.count > 1) return route.continue();
    await route.fetch();
    return route.abort('connectionreset');
  });
  return posts;
}
