/**
 * An open screen keeps up with what others write: every few seconds the window asks the server
 * whether anyone else wrote since it last asked (GET /live: the server's start and a count of
 * the writes not made by this window's key), and when the answer changed, the queries on screen
 * are read again. So the hub's Review lists a gift a station just sent, a station's donor page
 * shows a correction the hub's feed brought, and a screen left open across a restart of the
 * server says what is true now. The window's own writes do not count: a burst of gifts typed
 * here reads nothing more (gift entry's saves already bring what it shows), and while a person
 * types or the window writes it does not ask at all.
 */
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LiveVersion } from '#shared/schemas/session.ts';

/** How often an open window asks. */
export const LIVE_EVERY_MS = 2_000;

/**
 * While a person types in this window (into a field: a volunteer's burst of gifts, a note in
 * Review; a shortcut that opens a screen is not typing) or the window writes, it does not ask: every request then is one a gift waits behind, what
 * gift entry shows comes with its own saves and lookups, and a list should not move under a
 * person's hands. It asks again this long after the last key typed or write sent.
 */
export const QUIET_AFTER_WORK_MS = 5_000;

/** When this window last saw a key pressed or sent a write (createApiClient's onWrite tells it). */
export function createWorkClock(now: () => number = Date.now) {
  let last = -Infinity;
  return {
    worked: () => {
      last = now();
    },
    working: () => now() - last < QUIET_AFTER_WORK_MS,
  };
}
export type WorkClock = ReturnType<typeof createWorkClock>;

export function useLiveRefresh(client: QueryClient, ask: () => Promise<LiveVersion>, work: WorkClock): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target;
      if (t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))
        work.worked();
    };
    document.addEventListener('keydown', onKey, true);
    let last: string | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const tick = async () => {
      timer = null;
      if (document.visibilityState !== 'hidden' && !work.working()) {
        try {
          const askedAt = Date.now();
          const v = await ask();
          const seen = `${v.instance}:${v.version}`;
          if (last === null) {
            // The first answer is the start to compare with: what was read before it was asked may
            // miss a write made meanwhile, so it is read again (what was read since is current).
            void client.invalidateQueries({
              refetchType: 'active',
              predicate: (q) => q.state.dataUpdatedAt > 0 && q.state.dataUpdatedAt < askedAt,
            });
          } else if (seen !== last) void client.invalidateQueries({ refetchType: 'active' });
          last = seen;
        } catch {
          // The server not answering is shown by the requests themselves (./server-reach.ts).
        }
      }
      if (!stopped) timer = setTimeout(() => void tick(), LIVE_EVERY_MS);
    };
    void tick();
    return () => {
      document.removeEventListener('keydown', onKey, true);
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [client, ask, work]);
}
