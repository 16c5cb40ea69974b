/**
 * What a request log line may say about the request: its method, the route it matched and
 * the URL with the values of query parameters that can hold personal data (a search for a
 * donor's name or email, anything not known to be an id, a number or a choice) replaced by
 * "[redacted]". Pure.
 */
import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are ids, numbers, dates or choices: kept in the log. */
const KEPT = new Set([
  'accountId',
  'limit',
  'offset',
  'kind',
  'push',
  'status',
  'state',
  'contactType',
  'basis',
  'bucket',
  'sortBy',
  'sortOrder',
  'startDate',
  'endDate',
  'electionType',
  'electionYear',
  'donationDate',
  'includeVoided',
]);

export const REDACTED = '[redacted]';

const kept = (key: string): boolean => KEPT.has(key) || /^[a-z][A-Za-z]*Id$/.test(key);

/** The URL as a log may show it: path as sent, query values that may be personal data redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .filter((p) => p !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      let key: string;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        key = '';
      }
      if (eq < 0) return rawKey.length <= 40 ? rawKey : REDACTED;
      const value = pair.slice(eq + 1);
      return kept(key) && value.length <= 80
        ? pair
        : `${kept(key) || /^[A-Za-z]{1,40}$/.test(key) ? rawKey : REDACTED}=${REDACTED}`;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** pino's serializer for `req` in Fastify's request log lines. */
export function requestLogSerializer(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    route: req.routeOptions?.url ?? null,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
  };
}
