/**
 * The election calendar and the default election (D5): a gift counts toward the election
 * it names, else the account's default election, else the next election on the calendar.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ELECTION_TYPES, type ElectionType } from '../../../shared/enums.ts';
import { ElectionCreate } from '../../../shared/schemas/extensions.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, Checkbox, EmptyState, Select, TextField, useToast } from '../../ui/index.ts';
import { sentenceResolver, showApiError } from './forms.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = ElectionCreate.omit({ accountId: true });
type FormIn = z.input<typeof CreateForm>;
type FormOut = z.output<typeof CreateForm>;

const typeLabel = (t: string) => `${t[0]!.toUpperCase()}${t.slice(1)}`;
export const electionName = (e: { electionType: string; electionYear: number }) =>
  `${typeLabel(e.electionType)} ${e.electionYear}`;
const asYear = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

export function ElectionsSection() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const elections = useQuery({ queryKey: qk.elections, queryFn: () => api.elections.list() });
  const account = useQuery({ queryKey: qk.account, queryFn: () => api.account() });
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: sentenceResolver(zodResolver(CreateForm)),
    defaultValues: { electionType: 'general', electionDate: '', isDefault: false },
  });

  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: qk.elections }),
      qc.invalidateQueries({ queryKey: qk.account }),
    ]);
  const create = useMutation({
    mutationFn: (body: FormOut) => api.elections.create(body),
    onSuccess: async (e) => {
      form.reset({ electionType: 'general', electionDate: '', isDefault: false, electionYear: undefined });
      setFormError(null);
      toast.show({
        message: `${electionName(e)} added to the calendar${e.isDefault ? ' as the default election' : ''}.`,
        tone: 'success',
        duration: 3500,
      });
      await refresh();
      form.setFocus('electionType');
    },
    onError: (err) =>
      setFormError(
        showApiError(err, form.setError, ['electionType', 'electionYear', 'electionDate', 'isDefault']),
      ),
  });
  const setDefault = useMutation({
    mutationFn: (e: { electionType: ElectionType; electionYear: number } | null) =>
      api.elections.setDefault(e ? e : { electionType: null, electionYear: null }),
    onSuccess: async (_r, e) => {
      toast.show({
        message: e
          ? `Gifts now count toward the ${electionName(e)} election unless they say otherwise.`
          : 'No default election: gifts count toward the next election on the calendar.',
        tone: 'success',
        duration: 3500,
      });
      await refresh();
    },
    onError: (err) => toast.show({ message: errorMessage(err), tone: 'error' }),
  });

  // The year follows the date typed, until the user types a year of their own.
  const onDateChange = (date: string) => {
    const y = Number(date.slice(0, 4));
    if (/^\d{4}-/.test(date) && !form.getFieldState('electionYear').isDirty) form.setValue('electionYear', y);
  };

  const rows = elections.data?.data ?? [];
  const current = account.data?.defaultElection ?? null;
  const currentOnCalendar =
    current !== null &&
    rows.some((e) => e.electionType === current.electionType && e.electionYear === current.electionYear);
  const dateField = form.register('electionDate');

  return (
    <section aria-labelledby="settings-elections" className="settings-section">
      <SectionHeader id="settings-elections" title="Elections">
        A gift counts toward the election it names; if it names none, toward the default election below; if
        there is none, toward the next election on this calendar.
      </SectionHeader>

      <div className="panel settings-default-election" aria-live="polite">
        <h3 className="panel-title">Default election</h3>
        {current ? (
          <p>
            Gifts count toward <strong>{electionName(current)}</strong>
            {currentOnCalendar ? '' : ' (not on the calendar below)'} unless they name another.{' '}
            <Button tone="quiet" onClick={() => setDefault.mutate(null)} busy={setDefault.isPending}>
              Clear the default
            </Button>
          </p>
        ) : (
          <p className="muted">
            None: gifts count toward the next election on the calendar. Choose one with “Make default” below.
          </p>
        )}
      </div>

      <form
        className="panel settings-form"
        onSubmit={form.handleSubmit((b) => create.mutate(b))}
        noValidate
        aria-labelledby="new-election-title"
      >
        <h3 id="new-election-title" className="panel-title">
          Add an election
        </h3>
        <div className="settings-form-row">
          <Select
            label="Type"
            data-autofocus
            options={ELECTION_TYPES.map((t) => ({ value: t, label: typeLabel(t) }))}
            error={form.formState.errors.electionType?.message}
            {...form.register('electionType')}
          />
          <TextField
            label="Election day"
            type="date"
            error={form.formState.errors.electionDate?.message}
            {...dateField}
            onChange={(e) => {
              void dateField.onChange(e);
              onDateChange(e.target.value);
            }}
          />
          <TextField
            label="Year"
            inputMode="numeric"
            autoComplete="off"
            fieldClassName="settings-narrow"
            error={form.formState.errors.electionYear?.message}
            {...form.register('electionYear', { setValueAs: asYear })}
          />
        </div>
        <Checkbox label="Make it the default election" {...form.register('isDefault')} />
        <div className="settings-form-actions">
          <Button type="submit" tone="primary" busy={create.isPending}>
            Add election
          </Button>
        </div>
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>

      {elections.isError ? (
        <p className="notice notice-error" role="alert">
          The elections could not be loaded: {elections.error.message}
        </p>
      ) : elections.isPending ? (
        <p className="muted">Loading elections…</p>
      ) : rows.length === 0 ? (
        <EmptyState title="No elections on the calendar yet.">
          Add the elections your gifts count toward; contribution limits per election follow them.
        </EmptyState>
      ) : (
        <table className="table settings-table">
          <caption className="visually-hidden">Election calendar</caption>
          <thead>
            <tr>
              <th scope="col">Election</th>
              <th scope="col">Day</th>
              <th scope="col">
                <span className="visually-hidden">Default</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                <th scope="row">{electionName(e)}</th>
                <td>{e.electionDate}</td>
                <td className="settings-row-actions">
                  {e.isDefault ? (
                    <span className="badge badge-accent">Default</span>
                  ) : (
                    <Button
                      tone="quiet"
                      onClick={() =>
                        setDefault.mutate({ electionType: e.electionType, electionYear: e.electionYear })
                      }
                      disabled={setDefault.isPending}
                      aria-label={`Make default: ${electionName(e)}`}
                    >
                      Make default
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
