/**
 * DNS-rebinding defence: a page the user visits can reach a loopback port, so a request
 * whose Host is not a loopback name is refused unless the server was opened wider.
 */
export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0 || !/^(:\d*)?$/.test(host.slice(end + 1))) return false;
    host = host.slice(1, end);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) {
      if (!/^\d*$/.test(host.slice(colon + 1))) return false; // "localhost:80@evil.example"
      host = host.slice(0, colon);
    }
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether a bind address keeps the server on this machine. */
export function isLoopbackBind(address: string): boolean {
  return isLoopbackHost(address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);
}
