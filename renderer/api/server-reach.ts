/**
 * Whether GiftDesk's own server (the one this page talks to, not HQ) is answering. Every
 * request of the API client reports here: a request that could not reach the server marks it
 * down at once (the donor box and the header say so instead of showing stale or empty
 * answers), any answer marks it up. While it is down a small watch asks again every second;
 * when it answers, every query on screen is fetched again, so the page recovers by itself (a
 * donor search typed meanwhile reruns) and nothing typed is touched.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useSyncExternalStore } from 'react';

export interface ServerReach {
  /** True from a request that could not reach the server until the next one that did. */
  isDown(): boolean;
  /** Called by the API client after each request: did the server answer (any status)? */
  report(answered: boolean): void;
  subscribe(listener: () => void): () => void;
}

export function createServerReach(): ServerReach {
  let down = false;
  const listeners = new Set<() => void>();
  return {
    isDown: () => down,
    report(answered) {
      if (down === !answered) return;
      down = !answered;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** How often the watch asks while the server is not answering. */
export const RETRY_EVERY_MS = 1_000;

export const ServerReachContext = createContext<ServerReach | null>(null);

/** True while GiftDesk's own server is not answering. */
export function useServerDown(): boolean {
  const reach = useContext(ServerReachContext);
  const subscribe = useCallback((l: () => void) => reach?.subscribe(l) ?? (() => undefined), [reach]);
  return useSyncExternalStore(subscribe, () => reach?.isDown() ?? false);
}

/**
 * While the server is down, `probe` (any request through the API client, which reports its
 * outcome) runs every RETRY_EVERY_MS; when the server answers again, the queries on screen
 * are fetched again.
 */
export function useServerWatch(reach: ServerReach, client: QueryClient, probe: () => Promise<unknown>) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let wasDown = reach.isDown();
    const tick = () => {
      timer = null;
      void probe()
        .catch(() => undefined)
        .finally(() => {
          if (reach.isDown() && timer === null) timer = setTimeout(tick, RETRY_EVERY_MS);
        });
    };
    const unsubscribe = reach.subscribe(() => {
      const down = reach.isDown();
      if (down && !wasDown && timer === null) timer = setTimeout(tick, RETRY_EVERY_MS);
      if (!down && wasDown) void client.invalidateQueries();
      wasDown = down;
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [reach, client, probe]);
}
