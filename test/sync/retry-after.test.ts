/** How long a remote asked us to wait: header seconds, header HTTP-date, or the 429 body. */
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../electron/sync/net/retry-after.ts';

const NOW = Date.UTC(2026, 10, 24, 16, 0, 0); // Tue, 24 Nov 2026 16:00:00 GMT

describe('parseRetryAfter', () => {
  it.each<[string, string | null, unknown, number | null]>([
    ['delta seconds', '7', undefined, 7000],
    ['zero seconds', '0', undefined, 0],
    ['padded seconds', '  3 ', undefined, 3000],
    ['fractional seconds (lenient)', '1.5', undefined, 1500],
    ['IMF-fixdate 2 minutes ahead', 'Tue, 24 Nov 2026 16:02:00 GMT', undefined, 120_000],
    ['RFC 850 date', 'Tuesday, 24-Nov-26 16:00:30 GMT', undefined, 30_000],
    ['asctime date', 'Tue Nov 24 16:00:10 2026', undefined, 10_000],
    ['a date in the past means now', 'Tue, 24 Nov 2026 15:00:00 GMT', undefined, 0],
    [
      'GiftDesk / hosted 429 body',
      null,
      { statusCode: 429, error: 'Too Many Requests', message: 'slow down', retryAfter: 2 },
      2000,
    ],
    ['body retryAfter as a string', null, { retryAfter: '4' }, 4000],
    ['envelope body', null, { error: { message: 'rate limited', retryAfter: 9 } }, 9000],
    ['header wins over body', '5', { retryAfter: 60 }, 5000],
    ['unusable header falls back to the body', 'soon', { retryAfter: 3 }, 3000],
    ['nothing', null, undefined, null],
    ['empty header, body without a hint', '', { statusCode: 429, message: 'x' }, null],
    ['negative seconds', '-5', undefined, null],
    ['junk', 'abc', undefined, null],
    ['absurd seconds (garbage, not advice)', '99999999999', undefined, null],
    ['negative body value', null, { retryAfter: -1 }, null],
    ['non-number body value', null, { retryAfter: true }, null],
    ['text body', null, 'Too many requests', null],
  ])('%s', (_name, header, body, expected) => {
    expect(parseRetryAfter(header, body, NOW)).toBe(expected);
  });
});
