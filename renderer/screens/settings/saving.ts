/**
 * How a Settings section saves: a form on a zod schema whose server refusals land at the
 * fields they name (useSettingsForm), its save (useSave) and a row's action from its button
 * (useAction). Each, done, toasts what it did and refreshes the lists it changed; a save may
 * then put the focus back on its form for the next one, unless the user has moved on meanwhile.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/errors.ts';
import { sentenceResolver, showApiError } from '../../forms.ts';
import { useToast } from '../../ui/index.ts';

/** How long a "done" toast stays. */
const DONE_MS = 3500;

export interface SettingsForm<TIn extends FieldValues, TOut> {
  form: UseFormReturn<TIn, unknown, TOut>;
  /** The form's own message: an API error that names no field shown here. */
  formError: string | null;
  setFormError: (message: string | null) => void;
  /** Puts an error at the fields it names (the first focused), the rest in formError. */
  showError: (err: unknown) => void;
}

/**
 * A react-hook-form form on a zod schema (messages as sentences, like the server's), with
 * the wire names of the fields it shows, so that the server's refusals land at them.
 */
export function useSettingsForm<TIn extends FieldValues, TOut>(
  schema: z.ZodType<TOut, TIn>,
  defaultValues: DefaultValues<TIn>,
  fields: ReadonlyArray<Path<TIn>>,
): SettingsForm<TIn, TOut> {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TIn, unknown, TOut>({
    resolver: sentenceResolver(zodResolver(schema)),
    defaultValues,
  });
  return {
    form,
    formError,
    setFormError,
    showError: (err) => setFormError(showApiError(err, form.setError, fields)),
  };
}

export interface SaveOptions<TVars, TResult> {
  mutationFn: (vars: TVars) => Promise<TResult>;
  /** The lists the save changes: refreshed before `afterRefresh`. */
  invalidate: readonly QueryKey[];
  /** The success toast's sentence; none when absent. */
  done?: (result: TResult, vars: TVars) => string;
  doneMs?: number;
  /** First thing on success (e.g. empty the form for the next one, keep the result). */
  onSaved?: (result: TResult, vars: TVars) => void;
  /** Last, once the lists show the change (e.g. close the dialog). */
  afterRefresh?: () => void;
  /**
   * Once the lists show the change, the focus back on the form's first field for the next
   * one — unless the user has typed, clicked or moved the focus since the save was asked (on a
   * slow machine they may be well into the next one: the focus stays where they are).
   */
  refocus?: () => void;
}

/** What a person does that says they have moved on (a save's answer must not take the focus back). */
const USER_MOVES = ['keydown', 'pointerdown', 'input', 'change'] as const;

/**
 * Starts watching for the user's moves: a key, a click, a field changed, or the focus gone to
 * another element (a date field refocuses its own parts when the form empties it: not a move).
 * The returned function stops watching and tells whether there was one.
 */
function watchUserMoves(): () => boolean {
  const focusedAtSave = document.activeElement;
  let moved = false;
  const onMove = () => {
    moved = true;
  };
  const onFocusIn = (e: FocusEvent) => {
    if (e.target !== focusedAtSave) moved = true;
  };
  for (const t of USER_MOVES) document.addEventListener(t, onMove, true);
  document.addEventListener('focusin', onFocusIn, true);
  return () => {
    for (const t of USER_MOVES) document.removeEventListener(t, onMove, true);
    document.removeEventListener('focusin', onFocusIn, true);
    return moved;
  };
}

/**
 * A mutation that, done, runs onSaved, says `done` in a toast, refreshes the lists, then runs
 * afterRefresh, and refocus if the user has not moved on meanwhile.
 */
function useRefreshingMutation<TVars, TResult>(
  {
    mutationFn,
    invalidate,
    done,
    doneMs = DONE_MS,
    onSaved,
    afterRefresh,
    refocus,
  }: SaveOptions<TVars, TResult>,
  onError: (err: Error) => void,
) {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn,
    onMutate: () => ({ stopWatching: watchUserMoves() }),
    onSuccess: async (result: TResult, vars: TVars, context) => {
      onSaved?.(result, vars);
      if (done) toast.show({ message: done(result, vars), tone: 'success', duration: doneMs });
      await Promise.all(invalidate.map((queryKey) => qc.invalidateQueries({ queryKey })));
      afterRefresh?.();
      if (context && !context.stopWatching()) refocus?.();
    },
    onError: (err: Error, _vars: TVars, context) => {
      context?.stopWatching();
      onError(err);
    },
  });
}

/**
 * The save of a settings form: on success the form's message is cleared, the toast says
 * what was done and the lists are refreshed; a refusal goes to the fields it names and
 * nothing typed is lost.
 */
export function useSave<TIn extends FieldValues, TOut, TVars, TResult>(
  f: SettingsForm<TIn, TOut>,
  options: SaveOptions<TVars, TResult>,
) {
  return useRefreshingMutation(
    {
      ...options,
      onSaved: (result, vars) => {
        options.onSaved?.(result, vars);
        f.setFormError(null);
      },
    },
    f.showError,
  );
}

/**
 * An action from a row's button (make default, revoke, retry…): on success the toast says
 * what was done and the lists are refreshed; a failure is said in an error toast.
 */
export function useAction<TVars, TResult>({
  onFailed,
  ...options
}: SaveOptions<TVars, TResult> & { onFailed?: () => void }) {
  const toast = useToast();
  return useRefreshingMutation(options, (err) => {
    onFailed?.();
    toast.show({ message: errorMessage(err), tone: 'error' });
  });
}
