/**
 * What bench part `hub` reads beside its own timings (bench/hub.ts): the hub's event-loop delay
 * from the probe inside its process (bench/hub-loop-probe.mjs), the hub's log (its answers by
 * route and status), processes' CPU time, and the section of RESULTS.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type HubSide, until } from '../test/hub/event-rig.ts';

export interface HubRow {
  name: string;
  figure: string;
  goal: string;
  met: string;
}

export interface HubBenchResult {
  rows: HubRow[];
  notes: string[];
  ok: boolean;
}

export interface LoopSnapshot {
  seq: number;
  p50: number;
  p99: number;
  max: number;
  count: number;
  resolutionMs: number;
}

/** Asks the probe in the hub's process for what it measured since the last ask (SIGUSR2). */
export async function loopSnapshot(hub: HubSide, file: string): Promise<LoopSnapshot> {
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as LoopSnapshot).seq : 0;
  hub.proc.child.kill('SIGUSR2');
  return until(
    "the hub's event-loop figures",
    () => {
      if (!fs.existsSync(file)) return undefined;
      const s = JSON.parse(fs.readFileSync(file, 'utf8')) as LoopSnapshot;
      return s.seq > before ? s : undefined;
    },
    { timeoutMs: 10_000, everyMs: 50 },
  );
}

/** The hub's answers between two instants, from its log: those not 2xx, and all of them, by route and status. */
export function hubAnswers(
  hub: HubSide,
  from: number,
  to: number,
): { refused: Map<string, number>; all: Map<string, number> } {
  const out = new Map<string, number>();
  const all = new Map<string, number>();
  const urls = new Map<string, string>();
  const file = path.join(hub.dataDir, 'giftdesk.log');
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let e: {
      time?: number;
      reqId?: string;
      req?: { method?: string; url?: string };
      res?: { statusCode?: number };
    };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      continue;
    }
    if (e.req && e.reqId) urls.set(e.reqId, `${e.req.method ?? '?'} ${(e.req.url ?? '?').split('?')[0]}`);
    const status = e.res?.statusCode;
    if (status === undefined || !e.reqId || (e.time ?? 0) < from || (e.time ?? 0) > to) continue;
    const k = `${urls.get(e.reqId) ?? '?'} ${status}`;
    all.set(k, (all.get(k) ?? 0) + 1);
    if (status < 200 || status > 299) out.set(k, (out.get(k) ?? 0) + 1);
  }
  return { refused: out, all };
}

/** CPU seconds (user + system) a process used so far (Linux: /proc; NaN elsewhere or once it is gone). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime: the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

export function hubMarkdown(r: HubBenchResult | null, why?: string): string {
  if (!r) return `## Event hub\n\n${why ?? 'Not run.'}\n`;
  return [
    '## Event hub',
    '',
    '| benchmark | figure | goal | met |',
    '|---|---|---|---|',
    ...r.rows.map((x) => `| ${x.name} | ${x.figure} | ${x.goal} | ${x.met} |`),
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
