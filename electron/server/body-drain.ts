/**
 * A body over the limit still gets an answer the client can read. Fastify refuses such a body
 * (413) before reading it and closes the connection; a client still writing its body then
 * gets EPIPE or a reset and often never sees the 413. So the rest of the body is read and
 * thrown away first (nothing is kept in memory), and the 413 goes out on a connection that
 * stays open. The draining is bounded: a body declared larger than DRAIN_BOUND.bytes, one that
 * goes on past that many bytes, or one still arriving DRAIN_BOUND.ms after the refusal is
 * answered at once and the connection closed (such a client may miss the answer).
 */
import type { IncomingMessage } from 'node:http';

export const DRAIN_BOUND = { bytes: 64 * 1024 * 1024, ms: 30_000 } as const;

/** `1048576` → "1 MiB"; a limit that is no whole number of MiB in bytes. */
export function formatByteLimit(bytes: number): string {
  return bytes % 2 ** 20 === 0 ? `${bytes / 2 ** 20} MiB` : `${bytes} bytes`;
}

/**
 * Reads and discards what is left of a request's body. Resolves true once the body has
 * ended (the connection can carry the next request), false when the bound was reached or
 * the client went away first.
 */
export function drainBody(
  raw: IncomingMessage,
  bound: { bytes: number; ms: number } = DRAIN_BOUND,
): Promise<boolean> {
  if (raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  if (Number(raw.headers['content-length']) > bound.bytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onGone);
      raw.off('error', onGone);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > bound.bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(raw.readableEnded);
    const timer = setTimeout(() => finish(false), bound.ms);
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onGone);
    raw.on('error', onGone);
    raw.resume();
  });
}
