/**
 * Create or edit a contact: profile, tags, sub-records (phones, emails, addresses,
 * education, employment, notes) and custom fields by type (pick lists offer only options
 * that are not retired; archived fields are not shown). react-hook-form holds what is typed;
 * the shared zod schema checks the body before it is sent; an error from the server appears
 * at the field it names, and a failed save keeps everything typed. Ctrl+Enter saves.
 * The sections are in form-sections.tsx, the inputs in form-widgets.tsx, the state and
 * save in use-contact-form.ts, the field model in form-model.ts.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Controller } from 'react-hook-form';
import type { Contact } from '#shared/schemas/contacts.ts';
import { errorMessage } from '../../api/errors.ts';
import { submitAsEnter } from '../../forms.ts';
import { hrefFor, navigate } from '../../router.ts';
import { Button, ConfirmDialog, EmptyState, Screen } from '../../ui/index.ts';
import { displayName, liveFields, type CustomFieldDef } from './form-model.ts';
import { ProfileSections, SubRecordSections } from './form-sections.tsx';
import { CustomFieldInput, TagInput } from './form-widgets.tsx';
import { useContactForm } from './use-contact-form.ts';
import { useContact, useCustomFields } from './queries.ts';

/** The create form (no contact yet) or the edit form once the contact and the field definitions are in. */
export function ContactFormScreen({ id }: { id: string | null }) {
  const fields = useCustomFields();
  const contact = useContact(id ?? '');
  const loading = fields.isPending || (id !== null && contact.isPending);
  const failure = fields.error ?? (id !== null ? contact.error : null);
  const title =
    id === null ? 'New contact' : contact.data ? `Edit ${displayName(contact.data)}` : 'Edit contact';
  if (failure) {
    return (
      <Screen title={title}>
        <EmptyState
          title={`This form could not be opened: ${errorMessage(failure)}`}
          action={
            <a className="btn" href={hrefFor('contacts')}>
              Back to contacts
            </a>
          }
        />
      </Screen>
    );
  }
  if (loading) {
    return (
      <Screen title={title}>
        <p className="muted" role="status">
          Loading…
        </p>
      </Screen>
    );
  }
  return (
    <ContactForm
      key={id ?? 'new'}
      title={title}
      contact={id === null ? null : (contact.data ?? null)}
      defs={fields.data ?? []}
    />
  );
}

function ContactForm({
  title,
  contact,
  defs,
}: {
  title: string;
  contact: Contact | null;
  defs: readonly CustomFieldDef[];
}) {
  const { form, initial, err, onSave, formError } = useContactForm(contact, defs);
  const { formState } = form;
  const [confirmLeave, setConfirmLeave] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);

  const leave = () => (contact ? navigate('contacts', contact.id) : navigate('contacts'));
  const onCancel = () => (formState.isDirty ? setConfirmLeave(true) : leave());
  const onFormKey = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submitAsEnter(formRef.current);
    }
  };

  const rootError = formState.errors.root?.message;
  const messages = [...formError, ...(rootError ? [rootError] : [])];
  const live = liveFields(defs);

  return (
    <Screen title={title} className="contact-form-screen">
      <form
        ref={formRef}
        className="contact-form"
        noValidate
        onSubmit={(e) => void onSave(e)}
        onKeyDown={onFormKey}
        aria-describedby="contact-form-help"
      >
        <p id="contact-form-help" className="muted">
          First and last name are required; everything else is optional. Ctrl+Enter saves from anywhere in the
          form.
        </p>
        {messages.length > 0 ? (
          <div className="notice notice-error" role="alert">
            {messages.join(' ')}
          </div>
        ) : null}
        <ProfileSections form={form} err={err} />

        <fieldset className="panel form-section">
          <legend>Tags</legend>
          <Controller
            control={form.control}
            name="tags"
            render={({ field }) => (
              <TagInput value={field.value} onChange={field.onChange} error={err('tags')} />
            )}
          />
        </fieldset>

        {live.length > 0 ? (
          <fieldset className="panel form-section">
            <legend>Custom fields</legend>
            <div className="form-grid">
              {live.map((d) => (
                <CustomFieldInput
                  key={d.id}
                  def={d}
                  form={form}
                  current={initial.custom[d.id] ?? ''}
                  error={err(`custom.${d.id}`)}
                />
              ))}
            </div>
          </fieldset>
        ) : null}
        <SubRecordSections form={form} err={err} />

        <div className="form-actions">
          {messages.length > 0 ? (
            <p className="field-error" aria-hidden="true">
              Not saved: see the messages above.
            </p>
          ) : null}
          <Button onClick={onCancel}>Cancel</Button>
          <Button tone="primary" type="submit" busy={formState.isSubmitting}>
            {contact ? 'Save changes' : 'Add contact'}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmLeave}
        title="Leave without saving?"
        confirmLabel="Discard my changes"
        cancelLabel="Keep editing"
        onConfirm={leave}
        onCancel={() => setConfirmLeave(false)}
      >
        <p>What you typed in this form has not been saved.</p>
      </ConfirmDialog>
    </Screen>
  );
}
