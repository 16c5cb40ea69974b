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

/** `https://H:PORT` of a hub bound to `bind` on `port`. */
export function hubUrl(bind: string, port: number): string {
  return `https://${shownHost(bind)}:${port}`;
}
