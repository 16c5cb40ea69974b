/**
 * The timing probe bench/renderer.ts installs in the page: every time is taken inside the
 * page (the key event's timestamp, a MutationObserver, the next animation frame), and the
 * helpers that arm it and read what it measured.
 */
import type { Page } from 'playwright-core';
import { log, fmt } from './renderer-common.ts';

/** What the probe installed in the page exposes (window.__bench). */
export interface Probe {
  /** Arms a measurement: starts at the next matching event, ends when `done` holds and a frame has begun. */
  arm(kind: 'enter' | 'alt2' | 'input', done: string): void;
  result: ProbeResult | null;
}
/** Times in ms from the start event; `requests`: what the page fetched meanwhile (resource timing). */
export interface ProbeResult {
  start: number;
  dom: number;
  frame: number;
  requests: Array<{ path: string; start: number; end: number }>;
}
export type BenchWindow = Window & { __bench?: Probe };

/**
 * Installs window.__bench. `done` names a condition checked on every DOM change after the
 * start event (the start is the event's own timeStamp: when the key reached the page).
 */
export function installProbe(): void {
  const w = window as BenchWindow;
  if (w.__bench) return;
  const conditions: Record<string, (arg: string) => boolean> = {
    // A saved-gift row whose id was not on screen when the measurement was armed.
    newGiftRow: (before) => {
      const known = new Set(before.split(','));
      return [...document.querySelectorAll('table.gift-table tr[data-donation-id]')].some(
        (tr) => !known.has(tr.getAttribute('data-donation-id') ?? ''),
      );
    },
    // The donor box's highlighted option (the one Enter takes) names `arg`.
    donorTop: (name) => {
      const id = document
        .querySelector('[role="combobox"][aria-activedescendant]')
        ?.getAttribute('aria-activedescendant');
      return id ? (document.getElementById(id)?.textContent ?? '').includes(name) : false;
    },
    // The contact list's first row has its data (a link), the list is not waiting, and the status names `arg`.
    contactRows: (statusText) =>
      document.querySelector('#contact-rows [role="row"][aria-rowindex="2"] a') !== null &&
      document.querySelector('[role="table"][aria-label="Contacts"][aria-busy]') === null &&
      (document.querySelector('.contacts-status')?.textContent ?? '').includes(statusText),
  };
  let armed: {
    kind: string;
    cond: () => boolean;
    start: number | null;
    observer: MutationObserver | null;
  } | null = null;
  const probe: Probe = {
    result: null,
    arm(kind, done) {
      const [name, arg] = [done.slice(0, done.indexOf(':')), done.slice(done.indexOf(':') + 1)];
      const test = conditions[name];
      if (!test) throw new Error(`no condition ${name}`);
      probe.result = null;
      performance.clearResourceTimings();
      armed = { kind, cond: () => test(arg), start: null, observer: null };
    },
  };
  const startAt = (e: Event) => {
    // The event's timeStamp is on performance.now()'s clock; guard against an odd one.
    const now = performance.now();
    return e.timeStamp > now - 5000 && e.timeStamp <= now ? e.timeStamp : now;
  };
  const begin = (e: Event) => {
    const a = armed;
    if (!a) return;
    a.start = startAt(e); // an input event restarts it: the time counts from the last keystroke
    performance.mark('bench-start', { startTime: a.start }); // for a trace (BENCH_UI_PROFILE)
    if (a.observer) return;
    a.observer = new MutationObserver(() => {
      if (a.start === null || !a.cond()) return;
      const dom = performance.now();
      a.observer?.disconnect();
      armed = null;
      const start = a.start;
      requestAnimationFrame(() => {
        const frame = performance.now();
        performance.mark('bench-frame');
        const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => e.startTime >= start - 1 && e.startTime <= frame)
          .map((e) => ({
            path:
              new URL(e.name).pathname.replace(/\/(cnt|don|bat)_[\w-]+/g, '/:id') +
              (e.name.includes('offset=') ? ' (page)' : ''),
            start: e.startTime - start,
            end: e.responseEnd - start,
          }));
        probe.result = { start, dom: dom - start, frame: frame - start, requests };
      });
    });
    a.observer.observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
    });
  };
  window.addEventListener(
    'keydown',
    (e) => {
      if (armed?.kind === 'enter' && e.key === 'Enter' && !armed.start) begin(e);
      if (armed?.kind === 'alt2' && e.altKey && e.key === '2' && !armed.start) begin(e);
    },
    true,
  );
  window.addEventListener('input', (e) => (armed?.kind === 'input' ? begin(e) : undefined), true);
  w.__bench = probe;
}

/**
 * tsx compiles this file with esbuild's keepNames, which wraps named functions in a `__name`
 * helper that the page does not have: give the page an identity one (now and after reloads).
 */
export async function prepare(page: Page): Promise<void> {
  const shim = 'globalThis.__name = globalThis.__name || ((f) => f);';
  await page.context().addInitScript(shim);
  await page.evaluate(shim);
}

export async function arm(page: Page, kind: 'enter' | 'alt2' | 'input', done: string): Promise<void> {
  await page.evaluate(installProbe);
  await page.evaluate(([k, d]) => (window as BenchWindow).__bench!.arm(k as 'enter', d!), [kind, done]);
}

/** Waits for the armed measurement; `frame` is start → the next frame, in ms. */
export async function measured(page: Page): Promise<ProbeResult> {
  const handle = await page.waitForFunction(() => (window as BenchWindow).__bench?.result ?? null, null, {
    timeout: 60_000,
  });
  const r = (await handle.jsonValue()) as ProbeResult;
  if (process.env.BENCH_UI_TRACE === '1')
    log(
      `${fmt(r.frame)} ms (DOM at ${fmt(r.dom)}): ${r.requests.map((q) => `${q.path} ${fmt(q.start)}→${fmt(q.end)}`).join(', ')}`,
    );
  return r;
}

export const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? '';
  });

export async function waitForFocus(page: Page, name: RegExp): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (name.test(await focusedLabel(page))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`focus never reached ${name} (on ${await focusedLabel(page)})`);
}
