/**
 * A loopback port nothing listens on right now: the place for an HQ that is not there (a
 * proxy may start on it later). Another socket could take it in between (a small chance).
 */
import net from 'node:net';

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return p;
}
