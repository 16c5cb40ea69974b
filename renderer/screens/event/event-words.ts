/**
 * The event's query keys (under qk.event and qk.hub) and its words: how often its lists
 * refresh, a station's close-out line, a short form of an id, a station's name on the board,
 * and which field of the join form a refusal from the hub belongs to.
 */
import type { z } from 'zod';
import type { CloseOutStation } from '#shared/schemas/hub.ts';
import type { DonationStats } from '#shared/schemas/stats.ts';
import { isApiError } from '../../api/errors.ts';
import { qk } from '../../api/query-keys.ts';
import { count } from '../../ui/format.ts';

export const eventKeys = {
  status: [...qk.event, 'status'] as const,
  notices: [...qk.event, 'notices'] as const,
  info: [...qk.hub, 'info'] as const,
  code: [...qk.hub, 'code'] as const,
  stations: [...qk.hub, 'stations'] as const,
  closeOut: [...qk.hub, 'close-out'] as const,
};

/** How often the hub's stations, its close-out and a station's state refresh while shown. */
export const EVENT_REFRESH_MS = 5_000;

/** "st_8f3a2c91…" → "8f3a2c91": what a station is called when its name is not known here. */
export function shortId(id: string): string {
  const tail = id.includes('_') ? id.slice(id.indexOf('_') + 1) : id;
  return tail.slice(0, 8);
}

type BoardRow = DonationStats['byStation'][number];

/** A row of the board's split by station, named as seen from here (`role`: this laptop in the event). */
export function stationLabel(r: BoardRow, role: 'hub' | 'station'): string {
  if (r.where === 'here')
    return role === 'hub' ? 'The hub (this laptop)' : `${r.stationName ?? 'This station'} (this station)`;
  if (r.where === 'hub') return 'The hub';
  return r.stationName ?? `Station ${shortId(r.stationId ?? '')}`;
}

type Station = z.infer<typeof CloseOutStation>;

/** "21:05": a time of tonight, on this laptop's clock (24-hour, as the close-out prints it). */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

/**
 * Where a station stands, in words: "Table B says it entered 41 gifts; the hub holds 40 — 1
 * still waiting"; "Table C: revoked — not known after 21:05"; complete only from a report
 * since the hub last started serving.
 */
export function completeness(s: Station): string {
  const holds = `the hub holds ${count(s.gifts, 'gift')}`;
  if (s.state === 'revoked')
    return `${s.name}: revoked — not known after ${s.revokedAt ? clockTime(s.revokedAt) : 'its removal'}; ${holds}. What it typed since stays on that laptop until it pairs again.`;
  if (s.state === 'not_reported')
    return s.reportedEntered === null
      ? `${s.name} has not reported yet; ${holds}.`
      : `${s.name} has not reported since the hub started serving again; ${holds}. Not complete until it does.`;
  const said = `${s.name} says it entered ${count(s.reportedEntered ?? 0, 'gift')}; the hub holds ${whole(s.gifts)}`;
  if (s.state === 'complete') return `${said}. Complete.`;
  const missing = (s.reportedEntered ?? 0) - s.gifts;
  if (missing > 0) return `${said} — ${whole(missing)} still waiting.`;
  const waiting = s.waiting ?? 0;
  return waiting > 0 ? `${said} — ${count(waiting, 'change')} still waiting.` : `${said} — not complete yet.`;
}

const whole = (n: number) => n.toLocaleString('en-US');

/** The join form's fields a refusal can name. */
export type JoinField = 'url' | 'code' | 'fingerprint' | 'name';

/**
 * Which join field a refusal from the hub is about, by its code: a wrong, used or expired
 * code (or too many tries) is the code's; another certificate is the fingerprint's; a hub
 * that does not answer is the address's. Null: the form's own message.
 */
export function joinFieldOf(err: unknown): JoinField | null {
  if (!isApiError(err)) return null;
  const code = err.code;
  if (code.startsWith('pairing_code') || err.status === 429) return 'code';
  if (code.includes('fingerprint') || code.includes('certificate')) return 'fingerprint';
  if (code.includes('unreachable') || code.includes('not_reachable') || code.includes('hub_connection'))
    return 'url';
  return null;
}
