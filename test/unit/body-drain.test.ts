/**
 * The bound on reading a refused body (electron/server/body-drain.ts): a body that ends is
 * read to its end; one declared or running past the byte bound, one still arriving when the
 * time bound passes, or one whose client went away is given up on (the connection is then
 * closed after the 413). A stream stands in for the request; the HTTP side is in
 * test/robustness/body-too-large.test.ts.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drainBody, formatByteLimit } from '../../electron/server/body-drain.ts';

function request(headers: Record<string, string> = {}): { raw: IncomingMessage; body: PassThrough } {
  const body = new PassThrough();
  return { raw: Object.assign(body, { headers }) as unknown as IncomingMessage, body };
}

const bound = { bytes: 1000, ms: 60_000 };

describe('drainBody', () => {
  it('reads a body to its end, however it arrives, and says the connection can go on', async () => {
    const { raw, body } = request({ 'content-length': '900' });
    const drained = drainBody(raw, bound);
    for (let i = 0; i < 9; i++) body.write(Buffer.alloc(100, 'a'));
    body.end();
    expect(await drained).toBe(true);
  });

  it('does not wait for a body declared larger than the bound', async () => {
    const { raw } = request({ 'content-length': '1001' });
    expect(await drainBody(raw, bound)).toBe(false);
  });

  it('stops reading a body without a length once it passes the bound', async () => {
    const { raw, body } = request();
    const drained = drainBody(raw, bound);
    body.write(Buffer.alloc(600, 'a'));
    body.write(Buffer.alloc(600, 'a')); // and the client would go on and on
    expect(await drained).toBe(false);
  });

  it('gives up on a body still arriving when the time bound passes (a slow endless upload)', async () => {
    const { raw, body } = request({ 'content-length': '900' });
    const drained = drainBody(raw, { bytes: 1000, ms: 50 });
    body.write(Buffer.alloc(10, 'a')); // then nothing more
    expect(await drained).toBe(false);
  });

  it('gives up when the client goes away', async () => {
    const { raw, body } = request({ 'content-length': '900' });
    const drained = drainBody(raw, bound);
    body.write(Buffer.alloc(10, 'a'));
    body.destroy();
    expect(await drained).toBe(false);
  });
});

describe('formatByteLimit', () => {
  it('names the limit as people read it', () => {
    expect(formatByteLimit(1024 * 1024)).toBe('1 MiB');
    expect(formatByteLimit(512 * 1024 * 1024)).toBe('512 MiB');
    expect(formatByteLimit(1_000_000)).toBe('1000000 bytes');
  });
});
