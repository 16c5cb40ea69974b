/**
 * Waits `ms` of the real clock, or less when the signal aborts; never rejects. For loops that
 * stop with their signal (a station's feed loop, the hub's feed gathering).
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
