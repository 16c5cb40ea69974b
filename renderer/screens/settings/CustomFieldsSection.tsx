/**
 * Custom fields on contacts: text, number, date, or a pick list of options. An option can
 * be retired (no longer offered; contacts keep their value) and brought back; a field can
 * be archived (hidden everywhere, values kept) and unarchived. Both are undoable.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { CUSTOM_FIELD_TYPES } from '#shared/enums.ts';
import {
  CustomFieldCreate,
  type CustomFieldAction,
  type CustomFieldDefinition,
} from '#shared/schemas/extensions.ts';
import { errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { sentence } from '../../forms.ts';
import { Button, EmptyState, Loaded, Select, TextArea, TextField, useToast } from '../../ui/index.ts';
import { NameField, NewItemForm, useNamedForm } from './row-forms.tsx';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = CustomFieldCreate.omit({ accountId: true });
type FormOut = z.output<typeof CreateForm>;
type Field = z.infer<typeof CustomFieldDefinition>;
type WithoutAccount<T> = T extends unknown ? Omit<T, 'accountId'> : never;
type Action = WithoutAccount<z.input<typeof CustomFieldAction>>;

export const TYPE_LABELS: Record<(typeof CUSTOM_FIELD_TYPES)[number], string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  picklist: 'Pick list',
};
const optionLines = (v: unknown): string[] =>
  String(v ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

function useFieldAction() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: Action }) =>
      api.customFields.action(id, { ...action, accountId: api.accountId } as z.input<
        typeof CustomFieldAction
      >),
    onSettled: () => qc.invalidateQueries({ queryKey: qk.customFields }),
  });
}

export function CustomFieldsSection() {
  const api = useApi();
  const fields = useQuery({ queryKey: qk.customFields, queryFn: () => api.customFields.list() });
  const all = fields.data?.data ?? [];
  const active = all.filter((c) => !c.archived);
  const archived = all.filter((c) => c.archived);
  const create = useNamedForm({
    schema: CreateForm,
    defaultValues: { name: '', type: 'text', options: [] },
    fields: ['name', 'type', 'options'],
    // Archived fields keep their names: a new field cannot take one (unarchive it instead).
    others: all,
    taken: 'A custom field with this name already exists.',
    // the next field is likely of the same type
    again: (c) => ({ name: '', type: c.type, options: [] }),
    mutationFn: (body: FormOut) =>
      api.customFields.create(body.type === 'picklist' ? body : { name: body.name, type: body.type }),
    invalidate: [qk.customFields],
    done: (c) => `Custom field “${c.name}” added.`,
  });
  const form = create.form;
  const type = form.watch('type');

  return (
    <section aria-labelledby="settings-custom-fields" className="settings-section">
      <SectionHeader id="settings-custom-fields" title="Custom fields">
        Extra fields every contact can carry. Scripts and imports address them by name.
      </SectionHeader>
      <NewItemForm
        titleId="new-field-title"
        title="New custom field"
        onSubmit={create.onSubmit}
        formError={create.formError}
      >
        <div className="settings-form-row">
          <NameField form={form} label="Field name" />
          <Select
            label="Type"
            options={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
            error={form.formState.errors.type?.message}
            {...form.register('type')}
          />
        </div>
        {type === 'picklist' ? (
          <TextArea
            label="Options, one per line"
            rows={4}
            hint="Contacts pick one of these. You can add and retire options later."
            error={form.formState.errors.options?.message ?? form.formState.errors.options?.root?.message}
            {...form.register('options', { setValueAs: optionLines })}
          />
        ) : null}
        <div className="settings-form-actions">
          <Button type="submit" tone="primary" busy={create.save.isPending}>
            Add field
          </Button>
        </div>
      </NewItemForm>

      <Loaded
        query={fields}
        noun="custom fields"
        isEmpty={all.length === 0}
        empty={
          <EmptyState title="No custom fields yet.">
            Add one above, e.g. “Member since” (a date) or “Donor tier” (a pick list).
          </EmptyState>
        }
      >
        {active.length === 0 ? <p className="muted">Every field is archived.</p> : null}
        <ul className="settings-cards" aria-label="Custom fields">
          {active.map((field) => (
            <FieldCard key={field.id} field={field} />
          ))}
        </ul>
        {archived.length > 0 ? (
          <details className="settings-archived">
            <summary>Archived fields ({archived.length})</summary>
            <ul className="settings-cards" aria-label="Archived custom fields">
              {archived.map((field) => (
                <FieldCard key={field.id} field={field} />
              ))}
            </ul>
          </details>
        ) : null}
      </Loaded>
    </section>
  );
}

function FieldCard({ field }: { field: Field }) {
  const toast = useToast();
  const act = useFieldAction();
  const headingId = useId();
  const run = (action: Action, done: string, undo?: Action) =>
    act.mutate(
      { id: field.id, action },
      {
        onSuccess: () =>
          toast.show({
            message: done,
            tone: 'success',
            undo: undo
              ? () =>
                  act.mutate(
                    { id: field.id, action: undo },
                    { onError: (e) => toast.show({ message: errorMessage(e), tone: 'error' }) },
                  )
              : undefined,
          }),
        onError: (e) => toast.show({ message: errorMessage(e), tone: 'error' }),
      },
    );

  return (
    <li
      className={['panel', 'settings-card', field.archived ? 'settings-card-archived' : '']
        .filter(Boolean)
        .join(' ')}
      aria-labelledby={headingId}
    >
      <div className="settings-card-head">
        <h3 id={headingId}>{field.name}</h3>
        <span className="badge">{TYPE_LABELS[field.type]}</span>
        {field.archived ? <span className="badge badge-muted">Archived</span> : null}
        <span className="settings-card-spacer" />
        {field.archived ? (
          <Button
            tone="quiet"
            disabled={act.isPending}
            onClick={() =>
              run({ action: 'unarchive' }, `“${field.name}” is back on contacts.`, { action: 'archive' })
            }
          >
            Unarchive
          </Button>
        ) : (
          <Button
            tone="quiet"
            disabled={act.isPending}
            onClick={() =>
              run({ action: 'archive' }, `“${field.name}” archived: hidden on contacts, values kept.`, {
                action: 'unarchive',
              })
            }
            aria-label={`Archive ${field.name}`}
          >
            Archive
          </Button>
        )}
      </div>
      {field.type === 'picklist' ? (
        <>
          <ul className="settings-options" aria-label={`Options of ${field.name}`}>
            {field.options.map((o) => (
              <li key={o.id} className={o.retired ? 'settings-option-retired' : undefined}>
                <span>{o.name}</span>
                {o.retired ? <span className="badge badge-muted">Retired</span> : null}
                {field.archived ? null : o.retired ? (
                  <Button
                    tone="quiet"
                    disabled={act.isPending}
                    onClick={() =>
                      run({ action: 'addOption', option: o.name }, `“${o.name}” is offered again.`)
                    }
                    aria-label={`Offer again: ${o.name}`}
                  >
                    Offer again
                  </Button>
                ) : (
                  <Button
                    tone="quiet"
                    disabled={act.isPending}
                    onClick={() =>
                      run(
                        { action: 'retireOption', option: o.name },
                        `“${o.name}” retired: no longer offered; contacts keep it.`,
                        { action: 'addOption', option: o.name },
                      )
                    }
                    aria-label={`Retire ${o.name}`}
                  >
                    Retire
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {field.archived ? null : <AddOption field={field} />}
        </>
      ) : null}
    </li>
  );
}

function AddOption({ field }: { field: Field }) {
  const act = useFieldAction();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const option = value.trim();
    if (!option) {
      setError('Type the option to add.');
      return;
    }
    const existing = field.options.find((o) => o.name.toLocaleLowerCase() === option.toLocaleLowerCase());
    if (existing && !existing.retired) {
      setError(`“${existing.name}” is already an option.`);
      return;
    }
    act.mutate(
      { id: field.id, action: { action: 'addOption', option } },
      {
        onSuccess: () => {
          setValue('');
          setError(undefined);
        },
        onError: (err) =>
          setError(isApiError(err) ? sentence(err.issueFor('option') ?? err.message) : errorMessage(err)),
      },
    );
  };
  return (
    <form className="settings-add-option" onSubmit={submit} noValidate>
      <TextField
        label={
          <>
            New option<span className="visually-hidden"> for {field.name}</span>
          </>
        }
        value={value}
        onChange={(e) => setValue(e.target.value)}
        autoComplete="off"
        error={error}
      />
      <Button type="submit" busy={act.isPending}>
        Add option
      </Button>
    </form>
  );
}
