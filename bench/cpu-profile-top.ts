/**
 * Where a CPU profile's time goes (`node --cpu-prof`'s .cpuprofile): self time by function and
 * by file, the largest first, and the share of the profile's wall time the process was idle.
 * `node --import tsx bench/cpu-profile-top.ts FILE [N] [WINDOW]` — what bench/RESULTS.md quotes.
 * WINDOW (a piece of a source path, e.g. `create-postgres.ts`): only the samples from the first
 * to the last whose stack runs through that file count — the load's window of a bench that
 * also seeds, or runs another part, in the same process.
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, nArg, windowArg] = process.argv.slice(2);
if (!file) throw new Error('usage: bench/cpu-profile-top.ts FILE [N]');
const n = Number(nArg ?? 25);
const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const parent = new Map<number, number>();
for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
/** Whether a sample's stack runs through the WINDOW file. */
const inWindowFile = (id: number): boolean => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
    if (byId.get(at)!.callFrame.url.includes(windowArg!)) return true;
  return false;
};
let first = 0;
let last = p.samples.length - 1;
if (windowArg) {
  first = p.samples.findIndex(inWindowFile);
  if (first < 0) throw new Error(`no sample runs through ${windowArg}`);
  while (!inWindowFile(p.samples[last]!)) last--;
}
const self = new Map<number, number>();
let windowUs = 0;
for (let i = first; i <= last; i++) {
  const id = p.samples[i]!;
  self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  windowUs += p.timeDeltas[i] ?? 0;
}
const total = windowArg ? windowUs / 1000 : (p.endTime - p.startTime) / 1000;
const short = (url: string) =>
  url.replace(/^file:\/\//, '').replace(/^.*?\/(node_modules\/|electron\/|shared\/|bench\/)/, '$1') ||
  '(native)';
const fnKey = (x: Node) =>
  `${x.callFrame.functionName || '(anonymous)'} ${short(x.callFrame.url)}:${x.callFrame.lineNumber + 1}`;
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const fns = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, us] of self) {
  const x = byId.get(id)!;
  add(fns, fnKey(x), us / 1000);
  add(
    files,
    x.callFrame.url ? short(x.callFrame.url).replace(/:\d+$/, '') : x.callFrame.functionName,
    us / 1000,
  );
}
// Each sample charged to the nearest frame of GiftDesk's own code outside electron/db (the
// domain or sync function that asked): where the database's and Kysely's time comes from.
const own = (x: Node) =>
  /\/(electron|shared)\//.test(x.callFrame.url) && !/\/electron\/db\//.test(x.callFrame.url);
const callers = new Map<string, number>();
for (const [id, us] of self) {
  let at: number | undefined = id;
  while (at !== undefined && !own(byId.get(at)!)) at = parent.get(at);
  add(
    callers,
    at === undefined ? '(outside GiftDesk: startup, idle, GC, TLS)' : fnKey(byId.get(at)!),
    us / 1000,
  );
}
const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, ms]) => `${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
process.stdout.write(
  `${file}: ${(total / 1000).toFixed(1)} s profiled${windowArg ? ` (the window of ${windowArg})` : ''}\n\nself time by function:\n${top(fns)}\n\nself time by file:\n${top(files)}\n\ncharged to the nearest GiftDesk caller outside electron/db:\n${top(callers)}\n`,
);
