/**
 * What the parts of bench/renderer.ts share: the scale of the run (contacts, gift entries,
 * rounds, the searches typed), logging, formatting, the result row and percentiles.
 */

export const SCALE = Number(process.env.BENCH_SCALE ?? 1);
export const CONTACTS = Math.max(1000, Math.round(100_000 * SCALE));
export const ENTRIES = Number(process.env.BENCH_UI_ENTRIES ?? Math.max(20, Math.round(200 * SCALE)));
export const WARMUP_ENTRIES = 5;
export const ROUNDS = Number(process.env.BENCH_UI_ROUNDS ?? Math.max(3, Math.round(20 * SCALE)));
/** The Contacts screen's page (renderer/screens/contacts/queries.ts PAGE_SIZE): each baseline asks for the same. */
export const PAGE = 50;
export const SEARCHES = [
  'quenn',
  'ada',
  'winterb',
  'sage th',
  'fairw',
  'mercer',
  'ha',
  'zoe y',
  'acme',
  'bluebird',
  'greenl',
  'iris ho',
];

export const log = (s: string) =>
  process.stderr.write(`[bench ui ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
export const fmt = (n: number, d = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export interface UiRow {
  name: string;
  figure: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: string;
}

export function percentiles(samples: number[]): { p50: number; p95: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  return { p50: at(50), p95: at(95), max: s[s.length - 1] ?? NaN };
}
