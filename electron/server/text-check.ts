/**
 * Text that is not valid Unicode is refused at entry, never changed. Three ways it arrives:
 * bytes that are not UTF-8 (decoding would silently turn them into U+FFFD), a JSON escape of
 * a lone surrogate ("\ud800", which SQLite would store as U+FFFD), and NUL (U+0000, which
 * cuts strings short in other programs and is refused by PostgreSQL's text). Each is a 400
 * naming the field. Pure.
 */
import type { FieldIssue } from '../domain/index.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string as text, or null when it is fine. */
export function textIssue(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (U+0000), which is not allowed in text';
  if (LONE_SURROGATE.test(s))
    return 'contains a lone surrogate (an unpaired \\uD800–\\uDFFF escape), which is not valid Unicode text';
  return null;
}

/** A field path for the answer: a path 200,000 arrays deep is named by its start. */
const shown = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path || '(body)');
const join = (at: string, key: string | number): string =>
  typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${key}` : key;

/**
 * Every field of a parsed JSON value (or a query/params object) whose string, or whose key,
 * is not valid text; `test` says what is wrong with one string. At most `max` issues.
 */
export function findTextIssues(
  value: unknown,
  test: (s: string) => string | null = textIssue,
  at = '',
  max = 10,
): FieldIssue[] {
  const out: FieldIssue[] = [];
  // Iterative: a body of 200,000 nested arrays must not exhaust the stack.
  const stack: Array<[unknown, string]> = [[value, at]];
  while (stack.length > 0 && out.length < max) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const issue = test(v);
      if (issue) out.push({ field: shown(path), issue });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, i)]);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        const keyIssue = test(k);
        if (keyIssue) out.push({ field: shown(join(path, k)), issue: `has a name that ${keyIssue}` });
        else stack.push([x, join(path, k)]);
      }
    }
  }
  return out.slice(0, max);
}

/** For a body that is not valid UTF-8, decoded with U+FFFD: the fields that held the bad bytes. */
export const NOT_UTF8_ISSUE = 'contains bytes that are not valid UTF-8 (send text encoded as UTF-8)';
export const replacementIssue = (s: string): string | null => (s.includes('\uFFFD') ? NOT_UTF8_ISSUE : null);
