/**
 * A background worker thread's priority: on Linux the calling thread alone (its id from
 * /proc/thread-self) runs 10 nice steps below the process, so the event loop that answers gift
 * entry, and the app's own screens, get the processor first while a print run reads and draws;
 * the run takes what they leave. Elsewhere, or if the system says no, the thread keeps the
 * process's priority.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function yieldToTheEventLoop(): void {
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
  } catch {
    // Not Linux, or not allowed: run at the process's priority.
  }
}
