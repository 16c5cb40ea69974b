/** Committees: who a gift was raised through. Added in the form at the top; renamed in place. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { CommitteeCreate, type Committee } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, FormDialog, Loaded, Table } from '../../ui/index.ts';
import { NameField, NewItemForm, RowAction, useNamedForm } from './row-forms.tsx';
import { SectionHeader } from './SectionHeader.tsx';

/** A committee is only its name: the same form makes one and renames one. */
const NameForm = CommitteeCreate.omit({ accountId: true });
type Body = z.output<typeof NameForm>;
type Row = z.infer<typeof Committee>;
const TAKEN = 'A committee with this name already exists.';

export function CommitteesSection() {
  const api = useApi();
  const committees = useQuery({ queryKey: qk.committees, queryFn: () => api.committees.list() });
  const [editing, setEditing] = useState<Row | null>(null);
  const rows = committees.data?.data ?? [];
  const create = useNamedForm({
    schema: NameForm,
    defaultValues: { name: '' },
    fields: ['name'],
    others: rows,
    taken: TAKEN,
    mutationFn: (body: Body) => api.committees.create(body),
    invalidate: [qk.committees],
    done: (c) => `Committee “${c.name}” added.`,
    again: true,
  });

  return (
    <section aria-labelledby="settings-committees" className="settings-section">
      <SectionHeader id="settings-committees" title="Committees">
        The committees gifts are raised through (host committees, boards, chapters).
      </SectionHeader>
      <NewItemForm
        titleId="new-committee-title"
        title="New committee"
        onSubmit={create.onSubmit}
        formError={create.formError}
      >
        <div className="settings-form-row">
          <NameField form={create.form} label="Committee name" />
          <Button type="submit" tone="primary" busy={create.save.isPending}>
            Add committee
          </Button>
        </div>
      </NewItemForm>
      <Loaded
        query={committees}
        noun="committees"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="No committees yet.">
            Add one above if gifts are raised through committees; otherwise nothing is needed here.
          </EmptyState>
        }
      >
        <Table className="settings-table" caption="Committees" columns={['Name', 'Added']} actions="Actions">
          {rows.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.name}</th>
              <td>{new Date(c.createdAt).toLocaleDateString()}</td>
              <RowAction verb="Rename" name={c.name} onClick={() => setEditing(c)} />
            </tr>
          ))}
        </Table>
      </Loaded>
      {editing ? (
        <RenameDialog
          committee={editing}
          others={rows.filter((r) => r.id !== editing.id)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function RenameDialog({
  committee,
  others,
  onClose,
}: {
  committee: Row;
  others: Row[];
  onClose: () => void;
}) {
  const api = useApi();
  const rename = useNamedForm({
    schema: NameForm,
    defaultValues: { name: committee.name },
    fields: ['name'],
    others,
    taken: TAKEN,
    mutationFn: (body: Body) => api.committees.update(committee.id, body),
    invalidate: [qk.committees],
    done: (c) => `Committee “${c.name}” saved.`,
    afterRefresh: onClose,
  });
  return (
    <FormDialog
      title={`Rename committee “${committee.name}”`}
      formId="rename-committee"
      busy={rename.save.isPending}
      onClose={onClose}
      onSubmit={rename.onSubmit}
      formError={rename.formError}
    >
      <NameField form={rename.form} label="Committee name" inDialog />
    </FormDialog>
  );
}
