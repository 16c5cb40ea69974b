/**
 * Text that is not valid Unicode is refused at entry, never changed. Three ways it arrives:
 * bytes that are not UTF-8 (decoding would silently turn them into U+FFFD), a JSON escape of
 * a lone surrogate ("\ud800", which SQLite would store as U+FFFD), and NUL (U+0000, which
 * cuts strings short in other programs and is refused by PostgreSQL's text). Each is a 400
 * naming the field. Pure.
 */
import type { FieldIssue } from '../domain/errors.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string as text, or null when it is fine. */
export function textIssue(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (U+0000), which is not allowed in text';
  if (LONE_SURROGATE.test(s)) return 'contains a lone surrogate (an unpaired \\uD800–\\uDFFF escape), which is not valid Unicode text';
  return null;
}

const join = (at: string, key: string | number): string => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${key}` : key);

/**
 * Every field of a parsed JSON value (or a query/params object) whose string, or whose key,
 * is not valid text; `test` says what is wrong with one string. At most `max` issues.
 */
export function findTextIssues(value: unknown, test: (s: string) => string | null = textIssue, at = '', max = 10): FieldIssue[] {
  const out: FieldIssue[] = [];
  const walk = (v: unknown, path: string): void => {
    if (out.length >= max) return;
    if (typeof v === 'string') {
      const issue = test(v);
      if (issue) out.push({ field: path || '(body)', issue });
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, join(path, i)));
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        const keyIssue = test(k);
        if (keyIssue) {
          out.push({ field: join(path, k), issue: `has a name that ${keyIssue}` });
          continue;
        }
        walk(x, join(path, k));
      }
    }
  };
  walk(value, at);
  return out;
}

/** For a body that is not valid UTF-8, decoded with U+FFFD: the fields that held the bad bytes. */
export const NOT_UTF8_ISSUE = 'contains bytes that are not valid UTF-8 (send text encoded as UTF-8)';
export const replacementIssue = (s: string): string | null => (s.includes('\uFFFD') ? NOT_UTF8_ISSUE : null);
