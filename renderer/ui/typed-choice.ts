/**
 * Which choice of a select a typed key lands on, given what was typed before it (the matching
 * behind type-to-choose.ts). Pure and free of the DOM, so it is tested without a browser.
 */
import { foldText } from '#shared/fold.ts';

const fold = (s: string) => foldText(s).toLowerCase();

/** The choice `key` typed after `typed` lands on (and the new typed text), or null for none. */
export function typedChoice(
  labels: readonly (string | null)[],
  current: number,
  typed: string,
  key: string,
): { typed: string; index: number } | null {
  const k = fold(key);
  const starts = (prefix: string, from = 0) => {
    for (let n = 0; n < labels.length; n++) {
      const i = (from + n) % labels.length;
      const label = labels[i];
      if (typeof label === 'string' && fold(label).startsWith(prefix)) return i;
    }
    return -1;
  };
  const longer = typed + k;
  const whole = starts(longer);
  if (whole >= 0 && !(longer.length > 1 && [...longer].every((c) => c === k)))
    return { typed: longer, index: whole };
  // The same letter again ("c", "c"): the next choice starting with it.
  if (typed !== '' && [...typed].every((c) => c === k)) {
    const next = starts(k, current + 1);
    return next >= 0 ? { typed: longer, index: next } : null;
  }
  const fresh = starts(k);
  return fresh >= 0 ? { typed: k, index: fresh } : null;
}
