/**
 * Form plumbing shared by the Settings sections: the server's field issues shown at the
 * fields they name (the first one focused), anything else as the form's own message; and
 * the money inputs of contribution limits (empty = no limit).
 */
import type { FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import { errorMessage, isApiError } from '../../api/errors.ts';

/**
 * Puts an API error's details at the form's fields. `fields` lists the wire names this form
 * shows (e.g. "name", "limits.perElection"); `alias` maps other wire names onto one of them
 * ("donationAccountIds[0]" → "donationAccountIds"). Returns the sentence for the form when
 * some issue has no field here (or the error was not the API's), else null.
 */
export function showApiError<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
  alias: (wireField: string) => string = (f) => f.replace(/\[\d+\]$/, ''),
): string | null {
  if (!isApiError(err)) return errorMessage(err);
  let placed = 0;
  let unplaced = false;
  for (const d of err.details) {
    const name = [d.field, alias(d.field)].find((f): f is Path<T> =>
      (fields as readonly string[]).includes(f),
    );
    if (name) {
      setError(name, { type: 'server', message: sentence(d.issue) }, { shouldFocus: placed === 0 });
      placed++;
    } else unplaced = true;
  }
  return placed === 0 || unplaced ? err.message : null;
}

/** "must not be empty" → "Must not be empty." */
export function sentence(issue: string): string {
  const t = issue.trim();
  if (!t) return t;
  return `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

/** A limit typed as dollars: "" is no limit (null), "3,300.00" reads 3300, anything else stays NaN for the schema to refuse. */
export function limitFromInput(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const t = String(v).trim().replace(/^\$/, '').replace(/,/g, '');
  if (t === '') return null;
  return /^-?\d*(\.\d*)?$/.test(t) ? Number(t) : Number.NaN;
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatDollars = (n: number): string => dollars.format(n);

/** A limit for an input box: "" for none. */
export const limitToInput = (n: number | null): string => (n === null ? '' : String(n));

function sentenceCase(errors: FieldErrors): void {
  for (const e of Object.values(errors)) {
    if (!e || typeof e !== 'object') continue;
    if ('message' in e && typeof e.message === 'string') e.message = sentence(e.message);
    if (!('type' in e) || typeof e.type !== 'string') sentenceCase(e as FieldErrors);
  }
}

/** A resolver whose messages read as sentences, like the server's once shown ("Must not be empty."). */
export function sentenceResolver<TIn extends FieldValues, TCtx, TOut>(
  inner: Resolver<TIn, TCtx, TOut>,
): Resolver<TIn, TCtx, TOut> {
  return async (values, context, options) => {
    const result = await inner(values, context, options);
    sentenceCase(result.errors);
    return result;
  };
}
