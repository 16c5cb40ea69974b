/**
 * A body over the server's limit (1 MiB) is answered 413 with the API's error body, and every
 * client reads that answer: Node's http writing the body in chunks, fetch, and curl (which
 * asks "Expect: 100-continue" for such a body), 2 MB and 20 MB bodies, 50 times each. The
 * server runs as a `giftdesk serve` child, as scripts meet it: in the test's own process the
 * client and the server would take turns on one event loop and hide the race (the server
 * closing while the client still writes: EPIPE, no answer). Also: the other write routes,
 * a chunked body without a length, a body beyond the drain bound (answered at once, the
 * connection closed) and the server still serving afterwards.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, isolatedEnv, type ServeChild, startServe } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';

const dataDir = tempDir('giftdesk-413-');
const { env, home } = isolatedEnv();
const ATTEMPTS = 50;
const SIZES = [2_000_000, 20_000_000];
const EXPECTED = '413 body_too_large: The request body is larger than this server accepts (1 MiB)';
const hasCurl = spawnSync('curl', ['--version']).status === 0;

let server: ServeChild;
let accountId = '';
let auth: Record<string, string> = {};

beforeAll(async () => {
  ({ id: accountId } = (await cliJson(
    ['account', 'create', '--name', 'Big Bodies', '--data-dir', dataDir],
    env,
  )) as {
    id: string;
  });
  const { keyId, secret } = (await cliJson(
    ['key', 'create', '--account', accountId, '--data-dir', dataDir],
    env,
  )) as {
    keyId: string;
    secret: string;
  };
  auth = { 'x-api-key': keyId, authorization: `Bearer ${secret}` };
  server = await startServe(
    ['--data-dir', dataDir, '--rate', '100000', '--burst', '100000', '--log-level', 'warn'],
    env,
  );
});

afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

/** A contact whose notes make the JSON exactly `size` bytes. */
function bigContact(size: number): Buffer {
  const head = `{"accountId":"${accountId}","firstName":"Łukasz","lastName":"Żółć","notes":[{"content":"`;
  const tail = '"}]}';
  return Buffer.from(head + 'n'.repeat(size - Buffer.byteLength(head) - tail.length) + tail);
}

/** What a client made of one answer: "status code: message", or the error it got instead. */
function outcome(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { statusCode?: number; error?: string; code?: string; message?: string };
    const shape = body.statusCode === status && body.error === 'Payload Too Large' ? '' : ' (odd body)';
    return `${status} ${body.code}: ${body.message}${shape}`;
  } catch {
    return `${status} not JSON: ${text.slice(0, 80)}`;
  }
}

/**
 * node:http, the body written in 64 KiB chunks as a script streaming it would (waiting for
 * 'drain'); `length: false` sends it chunked, without Content-Length.
 */
function viaNodeHttp(method: string, route: string, body: Buffer, length = true): Promise<string> {
  const url = new URL(`${server.url}/api/v1${route}`);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: {
          ...auth,
          'content-type': 'application/json',
          ...(length ? { 'content-length': String(body.length) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(outcome(res.statusCode ?? 0, text)));
        res.on('error', (e: NodeJS.ErrnoException) => resolve(`response cut off: ${e.code ?? e.message}`));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`no answer: ${e.code ?? e.message}`));
    let sent = 0;
    const write = () => {
      while (sent < body.length) {
        const chunk = body.subarray(sent, sent + 64 * 1024);
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

async function viaFetch(body: Buffer): Promise<string> {
  try {
    const res = await fetch(`${server.url}/api/v1/contacts`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    });
    return outcome(res.status, await res.text());
  } catch (e) {
    const cause = (e as { cause?: NodeJS.ErrnoException }).cause;
    return `no answer: ${cause?.code ?? cause?.message ?? String(e)}`;
  }
}

function viaCurl(file: string): Promise<string> {
  const headers = Object.entries({ ...auth, 'content-type': 'application/json' }).flatMap(([k, v]) => [
    '-H',
    `${k}: ${v}`,
  ]);
  const args = [
    '-sS',
    '--noproxy',
    '*',
    '-o',
    '-',
    '-w',
    '\n%{http_code}',
    ...headers,
    '--data-binary',
    `@${file}`,
  ];
  return new Promise((resolve) => {
    execFile('curl', [...args, `${server.url}/api/v1/contacts`], (err, stdout, stderr) => {
      if (err) return resolve(`no answer: curl exited ${err.code}: ${stderr.trim()}`);
      const nl = stdout.lastIndexOf('\n');
      resolve(outcome(Number(stdout.slice(nl + 1)), stdout.slice(0, nl)));
    });
  });
}

/** Runs `attempt` n times one after another and counts the outcomes. */
async function tally(n: number, attempt: () => Promise<string>): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const o = await attempt();
    seen[o] = (seen[o] ?? 0) + 1;
  }
  return seen;
}

async function contactCount(): Promise<number> {
  const r = await rawRequest(
    `${server.url}/api/v1/contacts?accountId=${accountId}&limit=1`,
    'GET',
    undefined,
    auth,
  );
  expect(r.status).toBe(200);
  return r.body.total as number;
}

// 50 × 20 MB through one client takes seconds here and can take minutes on a loaded machine:
// a guard against a hang, not a budget.
describe('a body over the limit: every client reads the 413', { timeout: 600_000 }, () => {
  it.each(SIZES)('node:http writing %i bytes in chunks, 50 times', async (size) => {
    const body = bigContact(size);
    expect(await tally(ATTEMPTS, () => viaNodeHttp('POST', '/contacts', body))).toEqual({
      [EXPECTED]: ATTEMPTS,
    });
  });

  it.each(SIZES)('fetch sending %i bytes, 50 times', async (size) => {
    const body = bigContact(size);
    expect(await tally(ATTEMPTS, () => viaFetch(body))).toEqual({ [EXPECTED]: ATTEMPTS });
  });

  it.each(SIZES)('curl sending %i bytes (Expect: 100-continue), 50 times', async (size) => {
    if (!hasCurl) {
      const line = '!'.repeat(78);
      console.warn(`\n${line}\n!! curl is not installed: the curl half of this test did NOT run\n${line}\n`);
      return;
    }
    const file = path.join(dataDir, `body-${size}.json`);
    fs.writeFileSync(file, bigContact(size));
    expect(await tally(ATTEMPTS, () => viaCurl(file))).toEqual({ [EXPECTED]: ATTEMPTS });
  });

  it('the other write routes, and a chunked body without a length, get the same readable 413', async () => {
    const contact = await rawRequest(
      `${server.url}/api/v1/contacts`,
      'POST',
      { accountId, firstName: 'Robert', lastName: 'Brown' },
      auth,
    );
    expect(contact.status).toBe(201);
    const body = bigContact(2_000_000);
    const routes: Array<[string, string]> = [
      ['POST', '/donations'],
      ['PUT', `/contacts/${contact.body.id}`],
      ['PATCH', '/donations/don_00000000000000000000000000'],
      ['POST', '/campaigns'],
    ];
    for (const [method, route] of routes)
      expect(await tally(10, () => viaNodeHttp(method, route, body)), `${method} ${route}`).toEqual({
        [EXPECTED]: 10,
      });
    expect(await tally(10, () => viaNodeHttp('POST', '/contacts', body, false)), 'chunked').toEqual({
      [EXPECTED]: 10,
    });
  });

  it('a body declared beyond the drain bound is answered at once, without waiting for it', async () => {
    // 100 MiB declared, 64 KiB sent, then nothing: the answer must come without the rest.
    const url = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (text += c));
      socket.on('close', () => resolve(text));
      socket.on('error', (e: NodeJS.ErrnoException) => (text ? resolve(text) : reject(e)));
      const headers = Object.entries(auth)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(
        `POST /api/v1/contacts HTTP/1.1\r\nHost: ${url.host}\r\n${headers}content-type: application/json\r\ncontent-length: ${100 * 2 ** 20}\r\n\r\n`,
      );
      socket.write(bigContact(64 * 1024));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(outcome(413, answer.slice(answer.indexOf('\r\n\r\n') + 4))).toBe(EXPECTED);
  });

  it('saved none of them, and the server still serves', async () => {
    expect(await contactCount()).toBe(1);
    const ok = await rawRequest(
      `${server.url}/api/v1/contacts`,
      'POST',
      { accountId, firstName: 'lukasz', lastName: 'zolc' },
      auth,
    );
    expect(ok.status).toBe(201);
    expect(await contactCount()).toBe(2);
    expect(server.child.exitCode).toBeNull();
  });
});
