/**
 * What bench/search-sqlite.ts and bench/search-postgres.ts share: p50/p95, their number format,
 * the machine's load average, and the timing of the search routes over HTTP (each route
 * variant over every search, round after round, the first round a warm-up).
 */
import http from 'node:http';
import os from 'node:os';

export function pct(samples: number[]): { p50: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  return { p50: at(50), p95: at(95) };
}
export const f1 = (n: number) => n.toFixed(1);

/** The 1, 5 and 15 minute load averages, one decimal each. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** A route to time: its label in the output, the path up to the query's accountId, what follows the search. */
export type SearchVariant = readonly [label: string, route: string, extra: string];

export interface HttpSearchTiming {
  /** The server's address, no trailing slash (the route starts with /api/v1). */
  url: string;
  accountId: string;
  headers: Record<string, string>;
  variants: readonly SearchVariant[];
  searches: readonly string[];
  rounds: number;
  /** Checks an answer's body (status 200 already checked); throws when it is wrong. */
  check?: (search: string, body: unknown) => void;
  /**
   * A baseline run just before each request for the same search (timed apart, not in the
   * request's time), so the two are measured at the same moments of the run: on a shared
   * machine whose speed swings within a minute, a baseline timed before all the requests
   * compares two different machines.
   */
  paired?: (search: string) => void;
}

/**
 * One connection kept open, as a staff script's client keeps it: node:http with a keep-alive
 * agent, the body read and parsed. The requests are timed with node:http rather than fetch,
 * whose own work is no part of the server's answer: on this 2-core machine fetch added 0.2–0.3 ms
 * at the median and 0.6–1.0 ms at the 95th percentile of the same requests (a probe timing
 * each request at the client and by the server's own log, 2026-12-05).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * Each variant over every search, `rounds` + 1 times (the first round not counted); prints one
 * line per variant: p50 and p95 of all its requests, then each search's p50/p95.
 */
export async function timeHttpSearches(
  o: HttpSearchTiming,
): Promise<Map<string, { p50: number; p95: number; paired?: { p50: number; p95: number } }>> {
  const out = new Map<string, { p50: number; p95: number; paired?: { p50: number; p95: number } }>();
  for (const [label, route, extra] of o.variants) {
    const all: number[] = [];
    const pairedAll: number[] = [];
    const per = new Map<string, number[]>();
    for (let round = 0; round <= o.rounds; round++) {
      for (const search of o.searches) {
        if (o.paired) {
          const b = performance.now();
          o.paired(search);
          if (round > 0) pairedAll.push(performance.now() - b);
        }
        const t = performance.now();
        const res = await getJson(
          `${o.url}${route}accountId=${o.accountId}&search=${encodeURIComponent(search)}${extra}`,
          o.headers,
        );
        const body = res.body;
        if (res.status !== 200) throw new Error(`${search}: ${res.status}`);
        o.check?.(search, body);
        if (round > 0) {
          all.push(performance.now() - t);
          per.set(search, [...(per.get(search) ?? []), performance.now() - t]);
        }
      }
    }
    const p = pct(all);
    const paired = o.paired ? pct(pairedAll) : undefined;
    out.set(label, { ...p, ...(paired ? { paired } : {}) });
    console.log(
      `http    ${label}: p50 ${f1(p.p50)} ms, p95 ${f1(p.p95)} ms  (${[...per].map(([k, v]) => `${k} ${f1(pct(v).p50)}/${f1(pct(v).p95)}`).join(', ')})${paired ? `; the baseline run before each request: p50 ${f1(paired.p50)} ms, p95 ${f1(paired.p95)} ms` : ''}`,
    );
  }
  return out;
}
