/**
 * What Settings → Sync says after "Sync now", from the pass's result and the status it ends
 * with — never a word the status contradicts: "up to date" only when nothing waits; when
 * changes wait, how many, why (HQ could not be reached, refused the key, asked to wait, or
 * records back off after errors) and when they go next. The connection's own problem is said
 * once, at the top of the panel (`connectionProblem`), in the words the server chose.
 */
import type { z } from 'zod';
import type { SyncRunResult, SyncStatus } from '#shared/schemas/sync.ts';
import { clockTime } from './sync-keys.ts';

type RunResult = z.infer<typeof SyncRunResult>;

export interface Said {
  tone: 'ok' | 'warn' | 'error';
  text: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What is wrong with the connection to HQ, when something is (shown once, at the top). */
export function connectionProblem(s: SyncStatus): string | null {
  const c = s.connection;
  return ['never', 'offline', 'refused'].includes(c.state) ? c.lastFailure : null;
}

/** Why changes still wait after a pass, in a few words. */
function whyWaiting(s: SyncStatus): string {
  switch (s.connection.state) {
    case 'never':
    case 'offline':
      return s.connection.lastFailure ? 'HQ could not be reached' : 'HQ has not answered yet';
    case 'refused':
      return 'HQ refused the API key';
    case 'paused':
      return 'HQ asked GiftDesk to wait';
    default:
      return s.needsAttention > 0
        ? 'some wait for a record that needs attention'
        : s.failing.length > 0
          ? 'some records back off after errors'
          : 'they go with the next pass';
  }
}

/** The words after "Sync now" (see the top of this file). */
export function passOutcome(r: RunResult, now = Date.now()): Said {
  if (!r.ran) return { tone: 'warn', text: r.stopped ?? 'Another process is syncing this database.' };
  const s = r.status;
  const attention =
    s.needsAttention > 0
      ? plural(s.needsAttention, 'record needs attention', 'records need attention') + ' (below)'
      : null;
  if (s.waiting > 0) {
    const next = s.nextTryAt ? `next try at ${clockTime(s.nextTryAt, now)}` : null;
    const text = [
      `${plural(s.waiting, 'change to gifts and contacts is', 'changes to gifts and contacts are')} waiting`,
      whyWaiting(s),
      next,
      attention,
    ]
      .filter(Boolean)
      .join('; ');
    return { tone: 'warn', text: `${text}.` };
  }
  if (attention) return { tone: 'warn', text: `Done, but ${attention}.` };
  return {
    tone: 'ok',
    text:
      r.requests === 0
        ? 'Nothing was waiting: HQ is up to date.'
        : `Sent. HQ is up to date (${plural(r.requests, 'request', 'requests')}).`,
  };
}
