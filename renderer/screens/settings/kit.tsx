/**
 * What the Settings sections have in common, so each says only what is its own: a form on a
 * zod schema whose server errors land at the fields they name (useSettingsForm), a save that
 * toasts and refreshes the lists it changed (useSave), the "new …" panel and the edit
 * dialog around such a form, the form's own error line, a list as loaded (error, loading,
 * empty state, rows), a table of rows with a hidden actions column, and the same-name check.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type FormEventHandler, type ReactNode } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/errors.ts';
import { Button, Dialog, TextField, useToast } from '../../ui/index.ts';
import { sentenceResolver, showApiError } from './forms.ts';

/** How long a "done" toast stays. */
const DONE_MS = 3500;

export const sameName = (a: string, b: string): boolean =>
  a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * Refuses, at the field and before anything is sent, a name some other row already has
 * (compared without case or surrounding spaces). Returns true when it refused.
 */
export function refuseTakenName<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  field: Path<T>,
  name: string | undefined,
  others: ReadonlyArray<{ name: string }>,
  message: string,
): boolean {
  if (name === undefined || !others.some((o) => sameName(o.name, name))) return false;
  form.setError(field, { type: 'duplicate', message }, { shouldFocus: true });
  return true;
}

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

/** What makes a row's name form: its schema, first values, the fields it shows, and its save. */
export interface NamedFormOptions<TIn extends FieldValues, TOut, TResult> extends SaveOptions<TOut, TResult> {
  schema: z.ZodType<TOut, TIn>;
  defaultValues: DefaultValues<TIn>;
  fields: ReadonlyArray<Path<TIn>>;
  /** The rows whose names this one may not take (for an edit, all but the row itself). */
  others: ReadonlyArray<{ name: string }>;
  /** What the name field says when the name is taken. */
  taken: string;
  /**
   * A form that makes new rows: once saved it is emptied for the next one (to its first
   * values, or what this gives) and the focus is back on the name once the list shows the row.
   */
  again?: true | ((result: TResult) => DefaultValues<TIn>);
}

/**
 * The form of a row with a name no other row may share (a campaign, a committee, a
 * donation account, a custom field): a taken name is refused at the field before anything
 * is sent, else the save runs (toast, refresh, server errors at their fields).
 */
export function useNamedForm<
  TIn extends FieldValues & { name?: unknown },
  TOut extends { name?: string },
  TResult,
>({ schema, defaultValues, fields, others, taken, again, ...save }: NamedFormOptions<TIn, TOut, TResult>) {
  const f = useSettingsForm(schema, defaultValues, fields);
  const mutation = useSave(
    f,
    again
      ? {
          ...save,
          onSaved: (result, vars) => {
            f.form.reset(again === true ? defaultValues : again(result));
            save.onSaved?.(result, vars);
          },
          refocus: () => {
            f.form.setFocus('name' as Path<TIn>);
            save.refocus?.();
          },
        }
      : save,
  );
  const onSubmit = f.form.handleSubmit((body) => {
    if (!refuseTakenName(f.form, 'name' as Path<TIn>, body.name, others, taken)) mutation.mutate(body);
  });
  return { ...f, save: mutation, onSubmit };
}

/**
 * A row's name box: in the new-row form it is the section's first field (data-autofocus:
 * choosing the section puts the focus there); in an edit dialog it takes the focus at once.
 */
export function NameField<TIn extends FieldValues & { name?: unknown }, TOut>({
  form,
  label,
  inDialog = false,
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  label: string;
  inDialog?: boolean;
}) {
  const errors = form.formState.errors as FieldErrors<{ name: string }>;
  return (
    <TextField
      label={label}
      autoComplete="off"
      {...(inDialog ? { autoFocus: true } : { 'data-autofocus': true })}
      error={errors.name?.message}
      {...form.register('name' as Path<TIn>)}
    />
  );
}

/** A row's quiet button in the actions column, named for the row ("Edit Spring Gala"). */
export function RowAction({ verb, name, onClick }: { verb: string; name: string; onClick: () => void }) {
  return (
    <td className="settings-row-actions">
      <Button tone="quiet" onClick={onClick} aria-label={`${verb} ${name}`}>
        {verb}
      </Button>
    </td>
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

/** A form's own error line (an alert), or nothing. */
export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p className="notice notice-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** The panel at the top of a section that makes a new row: a titled form, its error line last. */
export function NewItemForm({
  titleId,
  title,
  onSubmit,
  formError,
  children,
}: {
  titleId: string;
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  formError: string | null;
  children: ReactNode;
}) {
  return (
    <form className="panel settings-form" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
      <h3 id={titleId} className="panel-title">
        {title}
      </h3>
      {children}
      <FormError message={formError} />
    </form>
  );
}

/**
 * A row's edit dialog: the form (Enter saves), Cancel and Save (Escape cancels); its first
 * field takes `autoFocus`.
 */
export function EditDialog({
  title,
  formId,
  wide,
  busy,
  onClose,
  onSubmit,
  formError,
  children,
}: {
  title: string;
  formId: string;
  wide?: boolean;
  busy: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  formError: string | null;
  children: ReactNode;
}) {
  return (
    <Dialog
      open
      wide={wide}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="primary" type="submit" form={formId} busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="settings-dialog-form">
        {children}
        <FormError message={formError} />
      </form>
    </Dialog>
  );
}

/**
 * A list as its query stands: why it could not be loaded, "Loading …", the empty state when
 * there is nothing (with the way to fill it), else the list itself.
 */
export function Loaded({
  query,
  noun,
  loading = `Loading ${noun}…`,
  isEmpty = false,
  empty = null,
  children,
}: {
  query: { isError: boolean; isPending: boolean; error: Error | null };
  /** What is loaded, as "The … could not be loaded". */
  noun: string;
  loading?: string;
  isEmpty?: boolean;
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (query.isError)
    return (
      <p className="notice notice-error" role="alert">
        The {noun} could not be loaded: {query.error?.message}
      </p>
    );
  if (query.isPending) return <p className="muted">{loading}</p>;
  return <>{isEmpty ? empty : children}</>;
}

export interface Column {
  label: ReactNode;
  /** A number column (right-aligned). */
  num?: boolean;
}

/**
 * A settings table: a caption for screen readers, the column heads, and (when `actions` is
 * given) a last column for the row's buttons, its head read out but not shown.
 */
export function SettingsTable({
  caption,
  columns,
  actions,
  children,
}: {
  caption: string;
  columns: ReadonlyArray<Column | string>;
  actions?: string;
  children: ReactNode;
}) {
  return (
    <table className="table settings-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c, i) => {
            const col = typeof c === 'string' ? { label: c } : c;
            return (
              <th key={i} scope="col" className={col.num ? 'num' : undefined}>
                {col.label}
              </th>
            );
          })}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">{actions}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
