/**
 * The forms of a Settings section's rows: the panel at the top that makes a new row, the form
 * of a row with a name no other row may share (a taken name refused at the field before
 * anything is sent; a new-row form emptied for the next one), its name box, and the quiet
 * button in a row's actions column.
 */
import type { FormEventHandler, ReactNode } from 'react';
import type { DefaultValues, FieldErrors, FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Button, FormError, TextField } from '../../ui/index.ts';
import { useSave, useSettingsForm, type SaveOptions } from './saving.ts';

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
