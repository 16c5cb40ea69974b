/**
 * Email match: before the engine creates a contact at HQ, it asks whether HQ already has a
 * contact with exactly that primary email, and links to it instead of creating a second one
 * (on by default; `emailMatch` in the remote settings turns it off).
 *
 * HQ's list has no email filter, only `search` (full text over name, email and
 * organisation), so the email is searched and the answers are matched here, exactly:
 * the list item's `email` (HQ's primary email) equal to ours after trimming, ignoring case
 * (mail systems treat addresses case-insensitively in practice). When HQ holds several
 * contacts with that email already, the oldest is chosen (sortBy=createdAt asc) — adding a
 * third would only make HQ's duplicates worse. A failed read is reported as such: the engine
 * must not create the contact on the strength of a search that did not answer.
 */
import type { Clock } from './clock.ts';
import type { ContactMatcher } from './engine.ts';
import { type RemoteReader, getJson, remoteMessage } from './remote-read.ts';

export type EmailMatch =
  | { kind: 'found'; remoteId: string; name: string; matches: number }
  | { kind: 'none' }
  | { kind: 'failed'; message: string; status?: number };

export interface EmailMatchOptions {
  /** Pages of search results read at most (100 each; default 5). */
  maxPages?: number;
  /** Attempts per page on a passing failure (default 3). */
  attempts?: number;
  clock?: Clock;
  signal?: AbortSignal;
}

/** The comparable form of an email: trimmed, lower case; null when it is not one. */
export function emailKey(email: string | null | undefined): string | null {
  if (typeof email !== 'string') return null;
  const k = email.trim().toLowerCase();
  return k.includes('@') ? k : null;
}

/** HQ's contact whose primary email is exactly `email`, if any (see the rules above). */
export async function findRemoteContactByEmail(remote: RemoteReader, remoteAccountId: string, email: string, opts: EmailMatchOptions = {}): Promise<EmailMatch> {
  const key = emailKey(email);
  if (!key) return { kind: 'none' };
  const pageSize = 100;
  const maxPages = Math.max(1, opts.maxPages ?? 5);
  const found: Array<{ id: string; name: string }> = [];
  for (let page = 0; page < maxPages; page++) {
    const r = await getJson(
      remote,
      '/contacts',
      { accountId: remoteAccountId, search: email.trim().slice(0, 200), limit: pageSize, offset: page * pageSize, sortBy: 'createdAt', sortOrder: 'asc' },
      { attempts: opts.attempts ?? 3, clock: opts.clock, signal: opts.signal },
    );
    if (!r.ok) return { kind: 'failed', message: `HQ's contact search failed: ${remoteMessage(r)}`, ...(r.status !== undefined ? { status: r.status } : {}) };
    const body = r.body as { data?: unknown; contacts?: unknown } | null;
    const items = Array.isArray(body?.data) ? (body.data as unknown[]) : Array.isArray(body?.contacts) ? (body.contacts as unknown[]) : null;
    if (!items) return { kind: 'failed', message: `HQ's answer to GET /contacts has no list of contacts ("data")` };
    for (const x of items) {
      if (typeof x !== 'object' || x === null) continue;
      const o = x as Record<string, unknown>;
      const id = typeof o.id === 'string' ? o.id : typeof o.id === 'number' ? String(o.id) : null;
      const itemEmail = typeof o.email === 'string' ? o.email : typeof o.primaryEmail === 'string' ? o.primaryEmail : null;
      if (id && emailKey(itemEmail) === key) found.push({ id, name: `${String(o.firstName ?? '')} ${String(o.lastName ?? '')}`.trim() });
    }
    if (items.length < pageSize) break;
  }
  const first = found[0];
  if (!first) return { kind: 'none' };
  return { kind: 'found', remoteId: first.id, name: first.name, matches: found.length };
}

/**
 * The engine's hook (SyncEngineOptions.matchContact): HQ's id of the contact to link to, or
 * null to create. A search that did not answer throws, so the engine backs the contact off
 * and tries again later instead of creating a possible duplicate.
 */
export const matchContactByEmail: ContactMatcher = async ({ client, remoteAccountId, email }) => {
  const r = await findRemoteContactByEmail(client, remoteAccountId, email, { attempts: 2 });
  if (r.kind === 'failed') throw new Error(r.message);
  return r.kind === 'found' ? r.remoteId : null;
};
