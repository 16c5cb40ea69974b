/**
 * The People section's dialogs: a set-password link shown once (with a Copy button), a
 * person's new role (the server's refusal — the last administrator — said at the field), and
 * the question before disabling someone (their open sessions end at once).
 */
import type { KeyboardEvent } from 'react';
import { z } from 'zod';
import { LAST_ADMINISTRATOR, type User } from '#shared/schemas/people.ts';
import { isApiError } from '../../api/errors.ts';
import { ROLES, Role } from '#shared/schemas/roles.ts';
import { useApi } from '../../api/provider.tsx';
import { submitAsEnter } from '../../forms.ts';
import { qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog, Dialog, FormDialog, Select } from '../../ui/index.ts';
import { CopyBox } from './NewKeyDialog.tsx';
import { useAction, useSave, useSettingsForm } from './saving.ts';

export const ROLE_LABEL: Record<Role, string> = {
  volunteer: 'Volunteer',
  coordinator: 'Coordinator',
  treasurer: 'Treasurer',
  administrator: 'Administrator',
};
export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r] }));

/** Enter on a role's choice sends its form, as Enter in a text box does (a select does not by itself). */
export function submitOnEnter(e: KeyboardEvent<HTMLSelectElement>): void {
  if (e.key !== 'Enter' || e.altKey) return;
  e.preventDefault();
  submitAsEnter(e.currentTarget.form);
}

/** A set-password link to show once: whose, and the address; `fresh` when the person was just added. */
export interface ShownLink {
  name: string;
  email: string;
  url: string;
  fresh: boolean;
}

export function SetPasswordLinkDialog({
  link,
  onClose,
  focusAfter,
}: {
  link: ShownLink;
  onClose: () => void;
  focusAfter?: () => HTMLElement | null;
}) {
  return (
    <Dialog
      open
      wide
      title={link.fresh ? `${link.name} is added` : `A new link for ${link.name}`}
      onClose={onClose}
      focusAfter={focusAfter}
      actions={
        <Button tone="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <p>
        Send this link to {link.name} at <strong>{link.email}</strong> yourself (by email or a message).
        Opening it, they choose their password, then sign in with their email and that password.
      </p>
      <p className="notice notice-warn">
        It works once, for 24 hours, and this is the only time it is shown: GiftDesk keeps no copy. If it is
        lost, make a new one with “New link”.
        {link.fresh ? null : ' Links made for them before no longer work.'}
      </p>
      <CopyBox label="Set-password link" text={link.url} />
    </Dialog>
  );
}

const RoleForm = z.object({ role: Role });

/** A person's new role: Enter saves; the server's refusal (the last administrator) shows at the field. */
export function RoleDialog({ person, onClose }: { person: User; onClose: () => void }) {
  const api = useApi();
  const form = useSettingsForm(RoleForm, { role: person.role }, ['role']);
  // The last administrator: the server's whole sentence (who, and what to do) at the field.
  const f = {
    ...form,
    showError: (err: unknown) =>
      isApiError(err) && err.code === LAST_ADMINISTRATOR
        ? form.form.setError('role', { type: 'issue', message: err.message }, { shouldFocus: true })
        : form.showError(err),
  };
  const save = useSave(f, {
    mutationFn: (body: z.output<typeof RoleForm>) => api.users.update(person.id, body),
    invalidate: [qk.users, qk.account, qk.me],
    done: (u) => `${u.name} is now ${ROLE_LABEL[u.role].toLowerCase()}, from their next step.`,
    afterRefresh: onClose,
  });
  return (
    <FormDialog
      title={`Role of ${person.name}`}
      formId="person-role"
      busy={save.isPending}
      onClose={onClose}
      onSubmit={f.form.handleSubmit((b) => save.mutate(b))}
      formError={f.formError}
    >
      <p className="muted">{person.email}</p>
      <Select
        label="Role"
        options={ROLE_OPTIONS}
        typeToChoose
        autoFocus
        onKeyDown={submitOnEnter}
        error={f.form.formState.errors.role?.message}
        {...f.form.register('role')}
      />
    </FormDialog>
  );
}

/** Asks before disabling `person` (none: closed), then disables them; `onDone` closes it either way. */
export function DisableDialog({ person, onDone }: { person: User | null; onDone: () => void }) {
  const api = useApi();
  const disable = useAction({
    mutationFn: (u: User) => api.users.update(u.id, { disabled: true }),
    invalidate: [qk.users],
    done: (u) => `${u.name} is disabled: their open sessions have ended.`,
    onSaved: onDone,
    onFailed: onDone,
  });
  return (
    <ConfirmDialog
      open={person !== null}
      title={`Disable ${person?.name ?? ''}?`}
      confirmLabel="Disable"
      busy={disable.isPending}
      onConfirm={() => person && disable.mutate(person)}
      onCancel={onDone}
    >
      <p>
        {person?.name} ({person?.email}) can no longer sign in, and every window they have open is refused at
        its next step, at once. Gifts they entered stay. You can enable them again later.
      </p>
    </ConfirmDialog>
  );
}
