/**
 * `giftdesk serve`'s log (serve-log.ts): every line in the data folder's file the moment it is
 * logged, so a server killed right after still has it; on the terminal only what a person
 * running the event needs; nothing written once the log is closed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openServeLog, serveLogFile } from '../../electron/cli/serve-log.ts';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function terminal(): { text: () => string; stream: NodeJS.WritableStream } {
  let text = '';
  const stream = {
    write(chunk: string) {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { text: () => text, stream };
}

function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gd-serve-log-'));
  dirs.push(d);
  return d;
}

const request = (id: string) =>
  JSON.stringify({ level: 30, time: Date.now(), reqId: id, req: { method: 'GET', url: '/api/v1/contacts' } });
const completed = (id: string) =>
  JSON.stringify({ level: 30, time: Date.now(), reqId: id, res: { statusCode: 200 }, responseTime: 4.2 });

it('has each line in the file as soon as it is logged, and shows only warnings and errors', async () => {
  const dir = dataDir();
  const t = terminal();
  const log = openServeLog({ dataDir: dir, json: false, requests: false, terminal: t.stream });
  const first = request('req_1');
  log.stream.write(first);
  // Read at once, in the same turn: nothing may wait for a later write (a kill -9 here keeps it).
  expect(fs.readFileSync(serveLogFile(dir), 'utf8')).toBe(`${first}\n`);
  log.stream.write(completed('req_1'));
  log.stream.write(
    JSON.stringify({ level: 50, time: Date.now(), msg: 'the sync failed', err: { message: 'ECONNRESET' } }),
  );
  const lines = fs.readFileSync(serveLogFile(dir), 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(3);
  expect(JSON.parse(lines[1]!)).toMatchObject({ reqId: 'req_1', res: { statusCode: 200 } });
  expect(t.text()).toMatch(/^\d\d:\d\d:\d\d error: the sync failed: ECONNRESET\n$/);
  expect(fs.statSync(serveLogFile(dir)).mode & 0o777).toBe(0o600);
  await log.close();
  // Closed: a late line goes nowhere (its descriptor's number may be another file's now).
  log.stream.write(request('req_2'));
  expect(fs.readFileSync(serveLogFile(dir), 'utf8').trimEnd().split('\n')).toHaveLength(3);
});

it('shows a line per request on the terminal when asked, and every JSON line with --json', async () => {
  const asked = terminal();
  const dir = dataDir();
  const log = openServeLog({ dataDir: dir, json: false, requests: true, terminal: asked.stream });
  log.stream.write(request('req_3'));
  log.stream.write(completed('req_3'));
  await log.close();
  expect(asked.text()).toMatch(/^\d\d:\d\d:\d\d GET \/api\/v1\/contacts 200 \(4 ms\)\n$/);

  const json = terminal();
  const log2 = openServeLog({ dataDir: dataDir(), json: true, requests: false, terminal: json.stream });
  const line = request('req_4');
  log2.stream.write(line);
  await log2.close();
  expect(json.text()).toBe(line);
});
