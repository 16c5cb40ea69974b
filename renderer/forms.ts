/**
 * The forms layer: forms check what they send with the same shared zod schema the server
 * uses, and put each issue — theirs or the server's `details` — at the field it names through
 * one function (showIssues), in the words the screen uses (humanIssue) or as sentences
 * (sentence, sentenceResolver); what no field shows becomes the form's own message.
 */
import { useRef, useState, type BaseSyntheticEvent } from 'react';
import type { FieldErrors, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import { newId } from '#shared/ids.ts';
import { errorMessage, isApiError, type FieldIssue } from './api/errors.ts';
import { readTab, writeTab } from './tab-storage.ts';

/** zod path → the server's field notation: ["addresses", 0, "city"] → "addresses[0].city". */
export function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(body)';
}

/** The issues `schema` finds in `value`, in the server's { field, issue } form (first per field). */
export function schemaIssues(schema: z.ZodType, value: unknown): FieldIssue[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const i of r.error.issues) {
    const field = fieldOf(i.path);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, issue: i.message });
  }
  return out;
}

/** Shows an issue at a form field: react-hook-form's setError, or what stands for it. */
export type SetFieldError<F extends string> = (
  name: F,
  error: { type: 'issue'; message: string },
  options: { shouldFocus: boolean },
) => void;

/** The form field a wire field's issue shows at: a map, or a function (none: not on this form). */
export type FieldFor<F extends string> =
  Readonly<Record<string, F>> | ((wireField: string) => F | null | undefined);

/**
 * Puts each issue at the form field `fieldFor` names for its wire field, in `words` (as given
 * when absent); with `focus` (the default) the first field given an issue takes the focus.
 * Every form shows its issues through this. Returns that first field, and the issues no field
 * here shows (for a message at the top of the form, so none is lost).
 */
export function showIssues<F extends string>(
  issues: readonly FieldIssue[],
  setError: SetFieldError<F>,
  fieldFor: FieldFor<F>,
  {
    words = (issue: string) => issue,
    focus = true,
  }: { words?: (issue: string) => string; focus?: boolean } = {},
): { first: F | null; rest: FieldIssue[] } {
  const fieldOfWire =
    typeof fieldFor === 'function'
      ? fieldFor
      : (wire: string) => (Object.hasOwn(fieldFor, wire) ? fieldFor[wire] : undefined);
  let first: F | null = null;
  const rest: FieldIssue[] = [];
  for (const i of issues) {
    const name = fieldOfWire(i.field);
    if (!name) {
      rest.push(i);
      continue;
    }
    setError(name, { type: 'issue', message: words(i.issue) }, { shouldFocus: focus && first === null });
    first ??= name;
  }
  return { first, rest };
}

/**
 * Puts an API error's details at the form's fields, as sentences. `fields` lists the wire
 * names this form shows (e.g. "name", "limits.perElection"); `alias` maps other wire names
 * onto one of them ("donationAccountIds[0]" → "donationAccountIds"). Returns the sentence for
 * the form when some issue has no field here (or the error was not the API's), else null.
 */
export function showApiError<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
  alias: (wireField: string) => string = (f) => f.replace(/\[\d+\]$/, ''),
): string | null {
  if (!isApiError(err)) return errorMessage(err);
  const shown = (f: string): f is Path<T> => (fields as readonly string[]).includes(f);
  const { first, rest } = showIssues(err.details, setError, (wire) => [wire, alias(wire)].find(shown), {
    words: sentence,
  });
  return first === null || rest.length > 0 ? err.message : null;
}

const WIRE_WORDS: Array<[RegExp, string]> = [
  [/\bdonationAccountId\b/g, 'donation account'],
  [/\bcampaignId\b/g, 'campaign'],
  [/\bcommitteeId\b/g, 'committee'],
  [/\bcontactId\b/g, 'donor'],
  [/\belectionType\b/g, 'election type'],
  [/\belectionYear\b/g, 'election year'],
];

/** A server issue in people's words: wire names ("campaignId") become what the screen calls them. */
export function humanIssue(issue: string): string {
  return WIRE_WORDS.reduce((s, [re, word]) => s.replace(re, word), issue);
}

/** "must not be empty" → "Must not be empty." */
export function sentence(issue: string): string {
  const t = issue.trim();
  if (!t) return t;
  return `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

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

/** "" → null for optional text sent to the API. */
export const orNull = (s: string | undefined | null): string | null => {
  const t = s?.trim() ?? '';
  return t === '' ? null : t;
};

/** Today's date, YYYY-MM-DD, in the user's own time zone (what "today" means at the event). */
export function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * A form's save that runs one at a time: asked again while the last is still on its way (Enter
 * again, a click on Save), it does nothing but keep the browser from submitting the form
 * itself. A disabled Save button only stops the browser's own Enter and clicks; a key the app
 * handles itself (the entry row's Enter from any field) calls the save directly, and a hub
 * slow to answer must not get the same gift twice. Set in the key's own event, before anything
 * is awaited.
 */
export function useOneAtATime(
  save: (e?: BaseSyntheticEvent) => Promise<void>,
): (e?: BaseSyntheticEvent) => Promise<void> {
  const running = useRef(false);
  return async (e) => {
    if (running.current) {
      e?.preventDefault();
      return;
    }
    running.current = true;
    try {
      await save(e);
    } finally {
      running.current = false;
    }
  };
}

/**
 * Submits `form` as Enter in one of its text boxes would: not while its default button (its
 * first submit button, wherever it is placed) is disabled, as a busy Save button is while the
 * save is on its way. `requestSubmit()` alone skips that check, so a key that calls it
 * (Ctrl+Enter, Enter on a choice) pressed twice would save twice.
 */
export function submitAsEnter(form: HTMLFormElement | null | undefined): void {
  if (!form) return;
  const byDefault = Array.from(form.elements).find(
    (el): el is HTMLButtonElement | HTMLInputElement =>
      (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) && el.type === 'submit',
  );
  if (byDefault?.disabled) return;
  form.requestSubmit();
}

/**
 * The key of the record a form tries to save (`entryKey` on a create): the same while the form
 * tries to save the same thing, so a try made again after its answer was lost (the hub's Wi-Fi
 * dropped once the record was in) gets the record saved the first time back, never a second
 * one. Something else tried (another donor, amount, batch…) is another record: a new key. And a
 * new one once the record is saved (`saved`), so two identical gifts typed one after the other
 * are two gifts.
 *
 * With `keptAs`, the try outlives a reload: it is kept in this tab's sessionStorage under that
 * name, as the entry row's draft is, so the row put back after F5 (pressed because the save
 * seemed stuck) tries the same record with the same key. Storage turned off: kept in memory.
 */
export function useTryKey(keptAs?: string): { keyFor: (what: unknown) => string; saved: () => void } {
  const [tries] = useState(() => {
    let last = keptAs ? readTab(keptAs, Try) : null;
    const keep = (next: Try | null) => {
      last = next;
      if (keptAs) writeTab(keptAs, next);
    };
    return {
      keyFor(what: unknown): string {
        const of = JSON.stringify(what);
        if (last?.of !== of) keep({ key: newId('entry'), of });
        return last!.key;
      },
      saved(): void {
        keep(null);
      },
    };
  });
  return tries;
}

/** A record tried: its key, and what was tried (as JSON). */
const Try = z.object({ key: z.string(), of: z.string() });
type Try = z.infer<typeof Try>;
