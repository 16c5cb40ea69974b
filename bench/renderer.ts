/**
 * The renderer's figures, part `ui` of `npm run bench`: run by bench/run.ts as a
 * child process (`node --import tsx bench/renderer.ts`), it prints progress on stderr and one
 * JSON line `{ rows, notes }` on stdout.
 *
 * Real parts only: the real server on a temp SQLite file serving the built renderer
 * (test/browser/helpers.ts), Chromium (test/browser/chromium.ts picks the build, as for the
 * browser tests; the notes name it) through playwright-core with the project's
 * flags, contacts seeded through the domain's bulk path (test/helpers/seed-contacts.ts).
 * Every time is taken inside the page with performance.now() (the key event's own timestamp
 * for the start, a MutationObserver for the row appearing, the next animation frame for it
 * being on screen), so Playwright's round-trips are not in the figures. Each figure has a
 * baseline measured in the same page, interleaved with it.
 *
 * BENCH_SCALE (default 1) scales the number of contacts (100,000), of gift entries (200) and
 * of contacts-screen rounds.
 *
 * The figures: renderer-gift-entry.ts and renderer-contacts.ts; the in-page timing probe:
 * renderer-probe.ts; what they share: renderer-common.ts. The bundle size is measured here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { ensureRendererBuilt, RENDERER_DIST } from '../electron/cli/renderer-build.ts';
import { seedContacts } from '../test/helpers/seed-contacts.ts';
import { resolveChromium } from '../test/browser/chromium.ts';
import { launchChromium, startAppServer } from '../test/browser/helpers.ts';
import { CONTACTS, log, fmt, type UiRow } from './renderer-common.ts';
import { giftEntry } from './renderer-gift-entry.ts';
import { contactsScreen } from './renderer-contacts.ts';

function bundleSize(): { row: UiRow; note: string } {
  const html = fs.readFileSync(path.join(RENDERER_DIST, 'index.html'), 'utf8');
  // What index.html loads before the first screen: its scripts, module preloads and style sheets.
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+\.(?:js|css))"/g)].map(
    (m) => m[1]!,
  );
  const gz = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  let first = 0;
  let firstRaw = 0;
  for (const r of refs) {
    const file = path.join(RENDERER_DIST, r.replace(/^\//, ''));
    first += gz(file);
    firstRaw += fs.statSync(file).size;
  }
  const assets = path.join(RENDERER_DIST, 'assets');
  const all = fs.readdirSync(assets).filter((f) => /\.(js|css)$/.test(f));
  const allGz = all.reduce((s, f) => s + gz(path.join(assets, f)), 0);
  const kb = (b: number) => `${fmt(b / 1024)} KB`;
  return {
    row: {
      name: 'Renderer bundle, first screen: JS + CSS that index.html loads, gzip',
      figure: `${kb(first)} gzip (${kb(firstRaw)} raw, ${refs.length} files)`,
      baseline: '— (the goal is absolute)',
      ratio: `${(first / (400 * 1024)).toFixed(2)} of the goal`,
      goal: 'under 400 KB',
      met: first < 400 * 1024 ? 'yes' : 'no',
    },
    note: `Bundle: \`vite build\` into dist/renderer (rebuilt first when its sources changed); the first screen is every .js and .css index.html references (${refs.join(', ')}), each gzipped at level 9 and summed. All JS + CSS in dist/renderer/assets (${all.length} files): ${kb(allGz)} gzip. Fonts and images are not counted.`,
  };
}

export async function benchRenderer(): Promise<{ rows: UiRow[]; notes: string[] }> {
  await ensureRendererBuilt({ log });
  const rows: UiRow[] = [];
  const notes: string[] = [];
  const bundle = bundleSize();
  const server = await startAppServer();
  let browser: Browser | null = null;
  try {
    log(`seeding ${fmt(CONTACTS, 0)} contacts`);
    const t0 = performance.now();
    await seedContacts(server.store, server.accountId, CONTACTS);
    log(`seeded in ${fmt((performance.now() - t0) / 1000)} s`);
    browser = await launchChromium();
    log(`Chromium ${browser.version()}, ${resolveChromium().describe}`);
    // BENCH_UI_ONLY=gift or =contacts: one part alone (while developing; the full part runs both).
    const only = process.env.BENCH_UI_ONLY;
    const g =
      only === 'contacts'
        ? { rows: [], note: 'Gift entry: not run (BENCH_UI_ONLY=contacts).' }
        : await giftEntry(browser, server);
    const c =
      only === 'gift'
        ? { rows: [], note: 'Contacts screen: not run (BENCH_UI_ONLY=gift).' }
        : await contactsScreen(browser, server);
    rows.push(...g.rows, ...c.rows, bundle.row);
    notes.push(
      g.note,
      c.note,
      bundle.note,
      `Chromium ${browser.version()} headless, ${resolveChromium().describe} (${os.cpus().length} cores shared with the rest of the run), viewport 1366×900; the server and Chromium run on the same machine as everything else.`,
    );
  } finally {
    await browser?.close();
    await server.close();
  }
  return { rows, notes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, 'renderer.ts')) {
  const out = await benchRenderer();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
