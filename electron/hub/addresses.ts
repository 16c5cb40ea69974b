/**
 * The hub's address as stations reach it: the machine's IPv4 addresses on its networks, and
 * the URL shown for a bind address (0.0.0.0 means every network: the first of them is shown).
 */
import os from 'node:os';

/** The machine's non-internal IPv4 addresses, in the order the system lists its interfaces. */
export function machineIpv4Addresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal && !out.includes(a.address)) out.push(a.address);
    }
  }
  return out;
}

/** The host a station types for a bind address: a wildcard bind shows the first network address. */
export function shownHost(bind: string): string {
  if (bind === '0.0.0.0' || bind === '::' || bind === '[::]') return machineIpv4Addresses()[0] ?? '127.0.0.1';
  if (bind.includes(':') && !bind.startsWith('[')) return `[${bind}]`;
  return bind;
}

/**
 * The addresses a station may use to reach a hub shown at `url` and bound to `bind`: the shown
 * one first, then, for a hub listening on every network, the same port on each of the machine's
 * other networks (the coordinator picks the one the stations are on). A hub bound to one
 * address has that one.
 */
export function hubAddresses(url: string | null, bind: string | null, machine: readonly string[]): string[] {
  if (!url) return [];
  if (bind !== '0.0.0.0' && bind !== '::' && bind !== '[::]') return [url];
  const port = new URL(url).port;
  const out = [url];
  for (const ip of machine) {
    const other = `https://${ip}:${port}`;
    if (!out.includes(other)) out.push(other);
  }
  return out;
}

/** `https://H:PORT` of a hub bound to `bind` on `port`. */
export function hubUrl(bind: string, port: number): string {
  return `https://${shownHost(bind)}:${port}`;
}
