/**
 * Several servers on one PostgreSQL database hear of each other's writes: each publishes the
 * writes it notes (a NOTIFY on one channel, right after they committed) and holds one
 * connection of its own that LISTENs, outside the pool, and tells its change signal what the
 * others wrote (change-signal.ts; the hub feed's long polls subscribe to it). Publishing is
 * coalesced: at most one NOTIFY in flight per server, carrying every key that wrote since the
 * last one. A listening connection that drops (a restart of the database, a network blip, an
 * administrator ending it) is opened again, at once and then with a growing pause up to 5 s;
 * what was published meanwhile is lost, so once it listens again every waiter looks once
 * (`heard(null)`). A write nobody published (the CLI, a crash between commit and NOTIFY) is
 * still seen at the long poll's next tick.
 */
import pg from 'pg';
import type { ChangeSignal } from '../change-signal.ts';

/** The channel every GiftDesk server on a database uses. */
export const CHANGE_CHANNEL = 'giftdesk_changes';
/** The listening connection's application_name (pg_stat_activity shows it). */
export const LISTEN_APPLICATION = 'giftdesk-listen';

/** The largest payload sent in one NOTIFY (PostgreSQL's limit is 8000 bytes). */
const MAX_PAYLOAD = 7000;

interface Published {
  from: string;
  keys: Array<string | null>;
}

export interface ChangeChannel {
  /** Queues this server's write for the next NOTIFY. */
  publish(note: { from: string; by: string | null }): void;
  /** Listens for the others' writes into `signal`; resolves once the first LISTEN went through (or failed). */
  listen(signal: ChangeSignal): Promise<void>;
  close(): Promise<void>;
}

function parse(payload: string | undefined): Published | null {
  try {
    const v: unknown = JSON.parse(payload ?? '');
    if (typeof v !== 'object' || v === null) return null;
    const { from, keys } = v as { from?: unknown; keys?: unknown };
    if (typeof from !== 'string' || !Array.isArray(keys)) return null;
    return { from, keys: keys.filter((k): k is string | null => k === null || typeof k === 'string') };
  } catch {
    return null;
  }
}

export function createChangeChannel(opts: { url: string; pool: pg.Pool }): ChangeChannel {
  let closed = false;
  let from = '';
  const pending = new Set<string | null>();
  let sending: Promise<void> | null = null;
  let client: pg.Client | null = null;
  let pause: { timer: NodeJS.Timeout; resolve: () => void } | null = null;
  let loop: Promise<void> | null = null;

  async function send(): Promise<void> {
    while (pending.size > 0 && !closed) {
      const keys: Array<string | null> = [];
      let size = from.length + 20;
      for (const k of pending) {
        size += (k?.length ?? 4) + 3;
        if (size > MAX_PAYLOAD && keys.length > 0) break;
        keys.push(k);
      }
      for (const k of keys) pending.delete(k);
      const payload = JSON.stringify({ from, keys } satisfies Published);
      // A NOTIFY that fails (the database briefly away) is not retried: the others' long polls
      // see the write at their next tick.
      await opts.pool.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, payload]).catch(() => undefined);
    }
  }

  function flush(): void {
    if (sending || closed || pending.size === 0) return;
    sending = (async () => {
      await Promise.resolve(); // the writes noted in this same turn go in the same NOTIFY
      await send();
    })().finally(() => {
      sending = null;
      flush();
    });
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      pause = { timer: setTimeout(resolve, ms), resolve };
    });
  }

  async function listenLoop(signal: ChangeSignal, firstDone: () => void): Promise<void> {
    let backoff = 0;
    let listenedBefore = false;
    while (!closed) {
      const c = new pg.Client({ connectionString: opts.url, application_name: LISTEN_APPLICATION });
      const ended = new Promise<void>((resolve) => {
        c.on('end', resolve);
        c.on('error', () => void c.end().catch(() => undefined));
      });
      c.on('notification', (msg) => {
        const note = parse(msg.payload);
        if (!note || note.from === signal.instance) return;
        for (const k of note.keys) signal.heard(k);
      });
      try {
        await c.connect();
        await c.query(`listen ${CHANGE_CHANNEL}`);
      } catch {
        await c.end().catch(() => undefined);
        firstDone();
        if (closed) return;
        backoff = Math.min(Math.max(backoff * 2, 100), 5000);
        await wait(backoff);
        continue;
      }
      client = c;
      backoff = 0;
      // Whatever was published while no connection listened is lost: every waiter looks once.
      if (listenedBefore) signal.heard(null);
      listenedBefore = true;
      firstDone();
      if (closed) void c.end().catch(() => undefined);
      await ended;
      client = null;
    }
  }

  return {
    publish(note) {
      if (closed) return;
      from = note.from;
      pending.add(note.by);
      flush();
    },
    listen(signal) {
      return new Promise<void>((resolve) => {
        loop = listenLoop(signal, resolve);
      });
    },
    async close() {
      closed = true;
      if (pause) {
        clearTimeout(pause.timer);
        pause.resolve();
      }
      await sending;
      await client?.end().catch(() => undefined);
      await loop;
    },
  };
}
