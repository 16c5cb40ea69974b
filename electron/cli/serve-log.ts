/**
 * Where `giftdesk serve` writes its log. Every entry (requests included, redacted as
 * log-redact.ts says) goes as a JSON line to a file in the data folder, owner-only. The
 * terminal gets what a person running the event needs: with --json, the JSON lines as
 * before (for scripts); otherwise warnings and errors as words, and a short line per request
 * only when asked for (--log-requests). So an hour of gift entry does not bury the link.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The log file of `serve` in a data folder. */
export function serveLogFile(dataDir: string): string {
  return path.join(dataDir, 'giftdesk.log');
}

/** A log file past this size is moved to `giftdesk.log.1` at the next start (one generation kept). */
export const LOG_ROTATE_BYTES = 20 * 1024 * 1024;

export interface ServeLogOptions {
  dataDir: string;
  /** The JSON lines on the terminal too (--json: scripts read them). */
  json: boolean;
  /** A line per request on the terminal (--log-requests). */
  requests: boolean;
  terminal: NodeJS.WritableStream;
}

export interface ServeLog {
  /** What pino writes to: one JSON line per call. */
  stream: { write(line: string): void };
  file: string;
  close(): Promise<void>;
}

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

const LEVEL_WORD: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

const clock = (t: number | undefined) => new Date(t ?? Date.now()).toTimeString().slice(0, 8);

export function openServeLog(opts: ServeLogOptions): ServeLog {
  const file = serveLogFile(opts.dataDir);
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  try {
    if (fs.statSync(file).size > LOG_ROTATE_BYTES) fs.renameSync(file, `${file}.1`);
  } catch {
    /* no log yet */
  }
  const fd = fs.openSync(file, 'a', 0o600);
  fs.fchmodSync(fd, 0o600); // an older, wider file is tightened as the database's are
  // Each line written as it is logged, straight to the file (as pino's own destination does):
  // it is in the system's hands at once, so a kill -9 loses none logged before it, and no write
  // waits in Node's thread pool beside the next request. A failed write (a full disk) is said
  // once on the terminal and the server goes on. Nothing is written once closed: the
  // descriptor's number may be another file's by then.
  let failed = false;
  let closed = false;
  const toFile = (line: string) => {
    if (closed) return;
    try {
      const bytes = Buffer.from(line, 'utf8');
      for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at);
    } catch (err) {
      if (failed) return;
      failed = true;
      opts.terminal.write(
        `warning: cannot write the log file ${file}: ${err instanceof Error ? err.message : String(err)}\n`,
      );
    }
  };
  const started = new Map<string, string>(); // reqId → "GET /api/v1/…", until the request completes

  const human = (line: string): string | null => {
    // Without --log-requests, only warnings and errors reach the terminal: a line pino wrote
    // below level 40 (every request's two) is passed over without parsing it.
    const level0 = /^\{"level":(\d+)[,}]/.exec(line);
    if (!opts.requests && level0 && Number(level0[1]) < 40) return null;
    let e: Entry;
    try {
      e = JSON.parse(line) as Entry;
    } catch {
      return line.endsWith('\n') ? line : `${line}\n`;
    }
    if (e.req && e.reqId) {
      if (opts.requests) started.set(e.reqId, `${e.req.method ?? '?'} ${e.req.url ?? '?'}`);
      return null;
    }
    if (e.res && e.reqId) {
      const what = started.get(e.reqId);
      started.delete(e.reqId);
      if (!opts.requests) return null;
      return `${clock(e.time)} ${what ?? e.reqId} ${e.res.statusCode ?? '?'} (${Math.round(e.responseTime ?? 0)} ms)\n`;
    }
    const level = e.level ?? 30;
    if (level < 40) return null; // start-up facts are said by the command itself; the rest is in the file
    const word = LEVEL_WORD[level] ?? 'error';
    const detail = e.err?.message && !e.msg?.includes(e.err.message) ? `: ${e.err.message}` : '';
    return `${clock(e.time)} ${word}: ${e.msg ?? ''}${detail}\n`;
  };

  return {
    file,
    stream: {
      write(line: string) {
        toFile(line.endsWith('\n') ? line : `${line}\n`);
        if (opts.json) opts.terminal.write(line);
        else {
          const text = human(line);
          if (text) opts.terminal.write(text);
        }
      },
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        fs.closeSync(fd);
      } catch {
        /* closed already */
      }
    },
  };
}
