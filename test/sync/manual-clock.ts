/**
 * A clock that moves only when the test says so. `advance(ms)` steps through every timer due
 * in that span in order, letting promise continuations run between them, so code that
 * sleeps in a loop sees the same sequence of instants it would see in real time.
 */
import type { Clock } from '../../electron/sync/net/clock.ts';

interface Timer {
  at: number;
  seq: number;
  resolve(): void;
}

export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
  /** Lets pending promise continuations run without moving time. */
  settle(): Promise<void>;
  pendingTimers(): number;
}

export function manualClock(start = Date.UTC(2026, 10, 24, 12, 0, 0)): ManualClock {
  let t = start;
  let seq = 0;
  const timers: Timer[] = [];
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise<void>((r) => setImmediate(r));
  };
  return {
    now: () => t,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer: Timer = {
          at: t + Math.max(0, ms),
          seq: seq++,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const i = timers.indexOf(timer);
          if (i >= 0) timers.splice(i, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        timers.push(timer);
      });
    },
    async advance(ms) {
      const end = t + ms;
      await settle();
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        t = Math.max(t, next.at);
        next.resolve();
        await settle();
      }
      t = end;
      await settle();
    },
    settle,
    pendingTimers: () => timers.length,
  };
}
