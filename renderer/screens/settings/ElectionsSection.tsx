/**
 * The election calendar and the default election (D5): a gift counts toward the election
 * it names, else the account's default election, else the next election on the calendar.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ELECTION_TYPES, type ElectionType } from '#shared/enums.ts';
import { ElectionCreate } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, Checkbox, EmptyState, Loaded, Select, Table, TextField } from '../../ui/index.ts';
import { NewItemForm } from './row-forms.tsx';
import { useAction, useSave, useSettingsForm } from './saving.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = ElectionCreate.omit({ accountId: true });
type FormOut = z.output<typeof CreateForm>;

const typeLabel = (t: string) => `${t[0]!.toUpperCase()}${t.slice(1)}`;
export const electionName = (e: { electionType: string; electionYear: number }) =>
  `${typeLabel(e.electionType)} ${e.electionYear}`;
const asYear = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

export function ElectionsSection() {
  const api = useApi();
  const elections = useQuery({ queryKey: qk.elections, queryFn: () => api.elections.list() });
  const account = useQuery({ queryKey: qk.account, queryFn: () => api.account() });
  const f = useSettingsForm(CreateForm, { electionType: 'general', electionDate: '', isDefault: false }, [
    'electionType',
    'electionYear',
    'electionDate',
    'isDefault',
  ]);
  const form = f.form;
  const create = useSave(f, {
    mutationFn: (body: FormOut) => api.elections.create(body),
    invalidate: [qk.elections, qk.account],
    done: (e) => `${electionName(e)} added to the calendar${e.isDefault ? ' as the default election' : ''}.`,
    onSaved: () =>
      form.reset({ electionType: 'general', electionDate: '', isDefault: false, electionYear: undefined }),
    refocus: () => form.setFocus('electionType'),
  });
  const setDefault = useAction({
    mutationFn: (e: { electionType: ElectionType; electionYear: number } | null) =>
      api.elections.setDefault(e ? e : { electionType: null, electionYear: null }),
    invalidate: [qk.elections, qk.account],
    done: (_r, e) =>
      e
        ? `Gifts now count toward the ${electionName(e)} election unless they say otherwise.`
        : 'No default election: gifts count toward the next election on the calendar.',
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
        {account.isPending ? (
          <p className="muted">Loading…</p>
        ) : account.isError ? (
          <p className="notice notice-error" role="alert">
            The default election could not be loaded: {account.error.message}
          </p>
        ) : current ? (
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

      <NewItemForm
        titleId="new-election-title"
        title="Add an election"
        onSubmit={form.handleSubmit((b) => create.mutate(b))}
        formError={f.formError}
      >
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
      </NewItemForm>

      <Loaded
        query={elections}
        noun="elections"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="No elections on the calendar yet.">
            Add the elections your gifts count toward; contribution limits per election follow them.
          </EmptyState>
        }
      >
        <Table
          className="settings-table"
          caption="Election calendar"
          columns={['Election', 'Day']}
          actions="Default"
        >
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
        </Table>
      </Loaded>
    </section>
  );
}
