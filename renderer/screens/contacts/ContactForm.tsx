/**
 * Create or edit a contact: profile, tags, sub-records (phones, emails, addresses,
 * education, employment, notes) and custom fields by type (pick lists offer only options
 * that are not retired; archived fields are not shown). react-hook-form holds what is typed;
 * the shared zod schema checks the body before it is sent; an error from the server appears
 * at the field it names, and a failed save keeps everything typed. Ctrl+Enter saves.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  Controller,
  useFieldArray,
  useForm,
  type FieldErrors,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { CONTACT_METHODS, CONTACT_STATUSES, CONTACT_TYPES, GENDERS } from '#shared/enums.ts';
import type { Contact } from '#shared/schemas/contacts.ts';
import { errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor, navigate } from '../../router.ts';
import {
  Button,
  Checkbox,
  ConfirmDialog,
  EmptyState,
  Screen,
  Select,
  TextArea,
  TextField,
  useToast,
} from '../../ui/index.ts';
import { enumLabel } from './format.ts';
import {
  checkBody,
  createBody,
  displayName,
  EMPTY_ITEM,
  emptyValues,
  formPath,
  liveFields,
  updateBody,
  valuesFromContact,
  type Collection,
  type ContactFormValues,
  type CustomFieldDef,
  type FormIssue,
} from './form-model.ts';
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

const OPTIONS = {
  contactType: CONTACT_TYPES.map((v) => ({ value: v, label: enumLabel(v) })),
  status: CONTACT_STATUSES.map((v) => ({ value: v, label: enumLabel(v) })),
  gender: GENDERS.map((v) => ({ value: v, label: enumLabel(v) })),
  preferredContactMethod: CONTACT_METHODS.map((v) => ({ value: v, label: enumLabel(v) })),
};

/** Walks "a.0.b" into an errors object. */
function errorAt(errors: FieldErrors<ContactFormValues>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  parts.forEach((part, i) => {
    if (i === parts.length - 1) {
      node[part] ??= value;
      return;
    }
    node[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
    node = node[part] as Record<string, unknown>;
  });
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
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const mode = contact ? 'edit' : 'create';
  const initial = useMemo(
    () => (contact ? valuesFromContact(contact, defs) : emptyValues(defs)),
    [contact, defs],
  );
  const [formError, setFormError] = useState<string[]>([]);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);

  const resolver: Resolver<ContactFormValues> = async (values) => {
    const body = mode === 'create' ? createBody(values, defs) : updateBody(values, initial, defs);
    const issues = checkBody(body, mode, defs);
    if (issues.length === 0) return { values, errors: {} };
    const errors: Record<string, unknown> = {};
    const general: string[] = [];
    for (const i of issues) {
      if (i.path) setAt(errors, i.path, { type: 'validate', message: i.message });
      else general.push(i.message);
    }
    if (general.length > 0) errors.root = { type: 'validate', message: general.join('; ') };
    return { values: {}, errors: errors as FieldErrors<ContactFormValues> };
  };

  const form = useForm<ContactFormValues>({
    defaultValues: initial,
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onBlur',
    shouldFocusError: true,
  });
  const { register, handleSubmit, formState, setError } = form;
  const err = (path: string) => errorAt(formState.errors, path);

  const onSave = handleSubmit(async (values) => {
    setFormError([]);
    try {
      let saved: Contact;
      if (contact) {
        const body = updateBody(values, initial, defs);
        saved = Object.keys(body).length === 0 ? contact : await api.contacts.update(contact.id, body);
      } else {
        saved = await api.contacts.create(createBody(values, defs));
      }
      queryClient.setQueryData(qk.contact(saved.id), saved);
      // The contact list and the sync badge (a saved contact waits for HQ).
      await Promise.all(
        [qk.contacts, qk.sync].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
      toast.show({
        message: `${displayName(saved)} ${contact ? 'was saved' : 'was added'}.`,
        tone: 'success',
      });
      navigate('contacts', saved.id);
    } catch (e) {
      // Nothing typed is thrown away: the values stay in the form; each message goes to its field.
      const general: string[] = [];
      if (isApiError(e) && e.details.length > 0) {
        const placed: FormIssue[] = e.details.map((d) => ({
          path: formPath(d.field, defs),
          message: d.issue,
        }));
        let focused = false;
        for (const p of placed) {
          if (p.path) {
            setError(
              p.path as 'firstName',
              { type: 'server', message: p.message },
              { shouldFocus: !focused },
            );
            focused = true;
          } else general.push(p.message);
        }
        if (general.length > 0 || !focused) general.unshift(e.message);
      } else {
        general.push(isApiError(e) && e.isNetwork ? e.message : `Not saved: ${errorMessage(e)}`);
      }
      setFormError([
        `Not saved. ${general.length > 0 ? general.join(' ') : 'See the messages at the fields.'} Everything you typed is still here.`,
      ]);
    }
  });

  const leave = () => (contact ? navigate('contacts', contact.id) : navigate('contacts'));
  const onCancel = () => (formState.isDirty ? setConfirmLeave(true) : leave());
  const onFormKey = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      formRef.current?.requestSubmit();
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

        <fieldset className="panel form-section">
          <legend>Name</legend>
          <div className="form-grid">
            <TextField label="Prefix" autoComplete="off" {...register('prefix')} error={err('prefix')} />
            <TextField
              label="First name"
              required
              autoComplete="off"
              data-autofocus
              {...register('firstName')}
              error={err('firstName')}
            />
            <TextField
              label="Middle name"
              autoComplete="off"
              {...register('middleName')}
              error={err('middleName')}
            />
            <TextField
              label="Last name"
              required
              autoComplete="off"
              {...register('lastName')}
              error={err('lastName')}
            />
            <TextField label="Suffix" autoComplete="off" {...register('suffix')} error={err('suffix')} />
            <Select
              label="Type"
              options={OPTIONS.contactType}
              {...register('contactType')}
              error={err('contactType')}
            />
            <Select label="Status" options={OPTIONS.status} {...register('status')} error={err('status')} />
          </div>
        </fieldset>

        <fieldset className="panel form-section">
          <legend>Reaching them</legend>
          <div className="form-grid">
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              {...register('primaryEmail')}
              error={err('primaryEmail')}
            />
            <TextField
              label="Phone"
              type="tel"
              autoComplete="off"
              {...register('primaryPhone')}
              error={err('primaryPhone')}
            />
            <Select
              label="Preferred contact method"
              placeholder="— not set —"
              options={OPTIONS.preferredContactMethod}
              {...register('preferredContactMethod')}
              error={err('preferredContactMethod')}
            />
          </div>
        </fieldset>

        <fieldset className="panel form-section">
          <legend>Work</legend>
          <div className="form-grid">
            <TextField
              label="Organization"
              autoComplete="off"
              {...register('organization')}
              error={err('organization')}
            />
            <TextField label="Job title" autoComplete="off" {...register('title')} error={err('title')} />
            <TextField
              label="Employer"
              autoComplete="off"
              {...register('employer')}
              error={err('employer')}
            />
            <TextField
              label="Occupation"
              autoComplete="off"
              {...register('occupation')}
              error={err('occupation')}
            />
            <TextField
              label="Industry"
              autoComplete="off"
              {...register('industry')}
              error={err('industry')}
            />
          </div>
        </fieldset>

        <fieldset className="panel form-section">
          <legend>Personal</legend>
          <div className="form-grid">
            <TextField label="Birth date" type="date" {...register('birthDate')} error={err('birthDate')} />
            <Select
              label="Gender"
              placeholder="— not set —"
              options={OPTIONS.gender}
              {...register('gender')}
              error={err('gender')}
            />
            <TextField label="Spouse" autoComplete="off" {...register('spouse')} error={err('spouse')} />
            <TextField
              label="Salutation"
              autoComplete="off"
              hint="Informal, e.g. “Jo”"
              {...register('salutation')}
              error={err('salutation')}
            />
            <TextField
              label="Formal salutation"
              autoComplete="off"
              hint="For letters"
              {...register('formalSalutation')}
              error={err('formalSalutation')}
            />
            <TextField
              label="Political party"
              autoComplete="off"
              {...register('politicalParty')}
              error={err('politicalParty')}
            />
            <TextField
              label="Giving capacity"
              autoComplete="off"
              {...register('capacity')}
              error={err('capacity')}
            />
            <TextField
              label="Source"
              autoComplete="off"
              hint="How they came to you"
              {...register('source')}
              error={err('source')}
            />
          </div>
          <TextArea label="Quick notes" rows={2} {...register('quickNotes')} error={err('quickNotes')} />
        </fieldset>

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

        <SubRecordEditor form={form} name="phoneNumbers" legend="Phone numbers" noun="phone number" err={err}>
          {(i) => (
            <>
              <TextField
                label="Number"
                type="tel"
                required
                {...register(`phoneNumbers.${i}.phoneNumber`)}
                error={err(`phoneNumbers.${i}.phoneNumber`)}
              />
              <TextField
                label="Type"
                hint="e.g. mobile, home"
                {...register(`phoneNumbers.${i}.phoneType`)}
                error={err(`phoneNumbers.${i}.phoneType`)}
              />
              <PrimaryBox
                form={form}
                name="phoneNumbers"
                index={i}
                error={err(`phoneNumbers.${i}.isPrimary`)}
              />
            </>
          )}
        </SubRecordEditor>
        <SubRecordEditor
          form={form}
          name="emailAddresses"
          legend="Email addresses"
          noun="email address"
          err={err}
        >
          {(i) => (
            <>
              <TextField
                label="Email address"
                type="email"
                required
                {...register(`emailAddresses.${i}.emailAddress`)}
                error={err(`emailAddresses.${i}.emailAddress`)}
              />
              <TextField
                label="Type"
                hint="e.g. work, personal"
                {...register(`emailAddresses.${i}.emailType`)}
                error={err(`emailAddresses.${i}.emailType`)}
              />
              <PrimaryBox
                form={form}
                name="emailAddresses"
                index={i}
                error={err(`emailAddresses.${i}.isPrimary`)}
              />
            </>
          )}
        </SubRecordEditor>
        <SubRecordEditor form={form} name="addresses" legend="Addresses" noun="address" err={err}>
          {(i) => (
            <>
              <TextField
                label="Street"
                {...register(`addresses.${i}.street1`)}
                error={err(`addresses.${i}.street1`)}
              />
              <TextField
                label="Street, line 2"
                {...register(`addresses.${i}.street2`)}
                error={err(`addresses.${i}.street2`)}
              />
              <TextField
                label="City"
                {...register(`addresses.${i}.city`)}
                error={err(`addresses.${i}.city`)}
              />
              <TextField
                label="State or region"
                {...register(`addresses.${i}.state`)}
                error={err(`addresses.${i}.state`)}
              />
              <TextField
                label="Postal code"
                {...register(`addresses.${i}.postalCode`)}
                error={err(`addresses.${i}.postalCode`)}
              />
              <TextField
                label="Country"
                {...register(`addresses.${i}.country`)}
                error={err(`addresses.${i}.country`)}
              />
              <TextField
                label="Type"
                hint="e.g. home, work"
                {...register(`addresses.${i}.addressType`)}
                error={err(`addresses.${i}.addressType`)}
              />
              <PrimaryBox form={form} name="addresses" index={i} error={err(`addresses.${i}.isPrimary`)} />
            </>
          )}
        </SubRecordEditor>
        <SubRecordEditor form={form} name="education" legend="Education" noun="education record" err={err}>
          {(i) => (
            <>
              <TextField
                label="Institution"
                required
                {...register(`education.${i}.institution`)}
                error={err(`education.${i}.institution`)}
              />
              <TextField
                label="Degree"
                {...register(`education.${i}.degree`)}
                error={err(`education.${i}.degree`)}
              />
              <TextField
                label="Field of study"
                {...register(`education.${i}.fieldOfStudy`)}
                error={err(`education.${i}.fieldOfStudy`)}
              />
              <TextField
                label="Graduation year"
                inputMode="numeric"
                {...register(`education.${i}.graduationYear`)}
                error={err(`education.${i}.graduationYear`)}
              />
            </>
          )}
        </SubRecordEditor>
        <SubRecordEditor form={form} name="employment" legend="Employment" noun="employment record" err={err}>
          {(i) => (
            <>
              <TextField
                label="Employer"
                required
                {...register(`employment.${i}.employer`)}
                error={err(`employment.${i}.employer`)}
              />
              <TextField
                label="Job title"
                {...register(`employment.${i}.title`)}
                error={err(`employment.${i}.title`)}
              />
              <TextField
                label="Occupation"
                {...register(`employment.${i}.occupation`)}
                error={err(`employment.${i}.occupation`)}
              />
              <TextField
                label="Start date"
                type="date"
                {...register(`employment.${i}.startDate`)}
                error={err(`employment.${i}.startDate`)}
              />
              <TextField
                label="End date"
                type="date"
                {...register(`employment.${i}.endDate`)}
                error={err(`employment.${i}.endDate`)}
              />
              <Checkbox label="Current job" {...register(`employment.${i}.isCurrent`)} />
            </>
          )}
        </SubRecordEditor>
        <SubRecordEditor form={form} name="notes" legend="Notes" noun="note" err={err}>
          {(i) => (
            <>
              <TextArea
                label="Note"
                required
                rows={3}
                fieldClassName="span-2"
                {...register(`notes.${i}.content`)}
                error={err(`notes.${i}.content`)}
              />
              <TextField
                label="Type"
                hint="e.g. call, meeting"
                {...register(`notes.${i}.noteType`)}
                error={err(`notes.${i}.noteType`)}
              />
            </>
          )}
        </SubRecordEditor>

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

function CustomFieldInput({
  def,
  form,
  current,
  error,
}: {
  def: CustomFieldDef;
  form: UseFormReturn<ContactFormValues>;
  current: string;
  error: string | undefined;
}) {
  const reg = form.register(`custom.${def.id}`);
  switch (def.type) {
    case 'text':
      return <TextField label={def.name} {...reg} error={error} />;
    case 'number':
      return (
        <TextField label={def.name} type="number" step="any" inputMode="decimal" {...reg} error={error} />
      );
    case 'date':
      return <TextField label={def.name} type="date" {...reg} error={error} />;
    case 'picklist': {
      // Retired options are not offered; a value already set to one stays shown (and kept) until changed.
      const options = def.options.filter((o) => !o.retired).map((o) => ({ value: o.name, label: o.name }));
      const retiredCurrent = def.options.find((o) => o.retired && o.name === current);
      if (retiredCurrent)
        options.push({
          value: retiredCurrent.name,
          label: `${retiredCurrent.name} (retired)`,
          disabled: true,
        } as (typeof options)[number]);
      return <Select label={def.name} placeholder="— none —" options={options} {...reg} error={error} />;
    }
  }
}

function PrimaryBox({
  form,
  name,
  index,
  error,
}: {
  form: UseFormReturn<ContactFormValues>;
  name: 'phoneNumbers' | 'emailAddresses' | 'addresses';
  index: number;
  error: string | undefined;
}) {
  const reg = form.register(`${name}.${index}.isPrimary`);
  return (
    <div className="primary-box">
      <Checkbox
        label="Primary"
        {...reg}
        onChange={(e) => {
          void reg.onChange(e);
          if (e.target.checked) {
            // one primary per collection: checking this one unchecks the others
            form.getValues(name).forEach((_, j) => {
              if (j !== index && form.getValues(`${name}.${j}.isPrimary`))
                form.setValue(`${name}.${j}.isPrimary`, false, { shouldDirty: true });
            });
          }
        }}
      />
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

function SubRecordEditor({
  form,
  name,
  legend,
  noun,
  children,
  err,
}: {
  form: UseFormReturn<ContactFormValues>;
  name: Collection;
  legend: string;
  noun: string;
  children: (index: number) => ReactNode;
  err: (path: string) => string | undefined;
}) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name });
  const addRef = useRef<HTMLButtonElement>(null);
  const capital = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <fieldset className="panel form-section">
      <legend>{legend}</legend>
      {err(name) ? (
        <p className="field-error" role="alert">
          {err(name)}
        </p>
      ) : null}
      {fields.length === 0 ? <p className="muted">None yet.</p> : null}
      {fields.map((f, i) => (
        <fieldset key={f.id} className="subrecord">
          <legend className="visually-hidden">
            {capital} {i + 1}
          </legend>
          <div className="form-grid">{children(i)}</div>
          <Button
            tone="quiet"
            className="subrecord-remove"
            aria-label={`Remove ${noun} ${i + 1}`}
            onClick={() => {
              remove(i);
              addRef.current?.focus();
            }}
          >
            Remove
          </Button>
        </fieldset>
      ))}
      <Button ref={addRef} onClick={() => append(EMPTY_ITEM[name]() as never, { shouldFocus: true })}>
        Add {noun}
      </Button>
    </fieldset>
  );
}

function TagInput({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (tags: string[]) => void;
  error: string | undefined;
}) {
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const add = (raw: string) => {
    const parts = raw
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const next = [...value];
    for (const p of parts) if (!next.some((t) => t.toLowerCase() === p.toLowerCase())) next.push(p);
    if (next.length !== value.length) onChange(next);
    setText('');
  };
  return (
    <div className="tag-input">
      {value.length > 0 ? (
        <ul className="tag-list" aria-label="Tags on this contact">
          {value.map((t) => (
            <li key={t} className="badge badge-tag">
              {t}
              <button
                type="button"
                className="tag-remove"
                aria-label={`Remove tag ${t}`}
                onClick={() => {
                  onChange(value.filter((x) => x !== t));
                  inputRef.current?.focus();
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <TextField
        ref={inputRef}
        label="Add a tag"
        hint="Enter or a comma adds it; tags help find and group contacts"
        value={text}
        error={error}
        autoComplete="off"
        onChange={(e) => {
          const v = e.target.value;
          if (v.includes(',')) add(v);
          else setText(v);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) {
            if (text.trim()) {
              e.preventDefault();
              add(text);
            }
          } else if (e.key === 'Backspace' && text === '' && value.length > 0) {
            onChange(value.slice(0, -1));
          }
        }}
        onBlur={() => {
          if (text.trim()) add(text);
        }}
      />
    </div>
  );
}
