/**
 * How long the remote asked us to wait, in milliseconds: the `Retry-After` header
 * (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), else a `retryAfter` (seconds) in the
 * body — at its top level as GiftDesk and the hosted service send it, or inside an
 * `{error: {…}}` envelope. null when neither says anything usable.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  body: unknown,
  nowMs: number,
): number | null {
  const fromHeader = parseHeader(header, nowMs);
  if (fromHeader !== null) return fromHeader;
  return parseBody(body);
}

const MAX_SECONDS = 7 * 24 * 3600; // past a week a value is garbage, not advice

function parseHeader(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const v = header.trim();
  if (v === '') return null;
  if (/^\d+(\.\d+)?$/.test(v)) {
    const s = Number(v);
    return s <= MAX_SECONDS ? Math.round(s * 1000) : null;
  }
  // An HTTP-date: IMF-fixdate, or the obsolete RFC 850 and asctime forms. It must name a
  // weekday or month so that a bare number with junk is not read as a date.
  if (!/[A-Za-z]{3}/.test(v)) return null;
  const at = Date.parse(/GMT|UTC|[+-]\d{4}$|Z$/.test(v) ? v : `${v} GMT`);
  if (!Number.isFinite(at)) return null;
  const ms = at - nowMs;
  if (ms > MAX_SECONDS * 1000) return null;
  return Math.max(0, ms);
}

function readSeconds(v: unknown): number | null {
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > MAX_SECONDS) return null;
  return Math.round(n * 1000);
}

function parseBody(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const top = readSeconds((body as Record<string, unknown>).retryAfter);
  if (top !== null) return top;
  const inner = (body as Record<string, unknown>).error;
  if (typeof inner === 'object' && inner !== null)
    return readSeconds((inner as Record<string, unknown>).retryAfter);
  return null;
}
