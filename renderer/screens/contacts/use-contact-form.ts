/**
 * The contact form's state and save: react-hook-form checked by the shared zod schema
 * (form-model's bodies, form-issues' checks), and a save that sends the create or the
 * changed fields, refreshes the list and the sync badge, and puts each server message at
 * its field.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm, type FieldErrors, type Path, type Resolver } from 'react-hook-form';
import type { Contact } from '#shared/schemas/contacts.ts';
import { errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { showIssues, useTryKey } from '../../forms.ts';
import { navigate } from '../../router.ts';
import { useToast } from '../../ui/index.ts';
import { checkBody, formPath } from './form-issues.ts';
import {
  createBody,
  displayName,
  emptyValues,
  updateBody,
  valuesFromContact,
  type ContactFormValues,
  type CustomFieldDef,
} from './form-model.ts';

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

/** The form for this contact (or a new one), its values at the start, and its save. */
export function useContactForm(contact: Contact | null, defs: readonly CustomFieldDef[]) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const mode = contact ? 'edit' : 'create';
  const initial = useMemo(
    () => (contact ? valuesFromContact(contact, defs) : emptyValues(defs)),
    [contact, defs],
  );
  const [formError, setFormError] = useState<string[]>([]);

  const resolver: Resolver<ContactFormValues> = async (values) => {
    const body =
      mode === 'create' ? createBody(values, defs) : updateBody(values, initial, defs, contact?.tags ?? []);
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
  const { handleSubmit, formState, setError } = form;
  const err = (path: string) => errorAt(formState.errors, path);

  // The key of the contact being added (useTryKey): saving again after a lost answer adds it once.
  const contactTry = useTryKey();
  const onSave = handleSubmit(async (values) => {
    setFormError([]);
    try {
      let saved: Contact;
      if (contact) {
        const body = updateBody(values, initial, defs, contact?.tags ?? []);
        saved = Object.keys(body).length === 0 ? contact : await api.contacts.update(contact.id, body);
      } else {
        const body = createBody(values, defs);
        saved = await api.contacts.create({ ...body, entryKey: contactTry.keyFor(body) });
        contactTry.saved();
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
        const { first, rest } = showIssues(
          e.details,
          setError,
          (field) => formPath(field, defs) as Path<ContactFormValues> | null,
        );
        general.push(...rest.map((r) => r.issue));
        if (general.length > 0 || first === null) general.unshift(e.message);
      } else if (isApiError(e) && e.isTimeout) {
        // It may have been saved: say only that, not "Not saved".
        setFormError([e.message]);
        return;
      } else {
        general.push(isApiError(e) && e.isNetwork ? e.message : `Not saved: ${errorMessage(e)}`);
      }
      setFormError([
        `Not saved. ${general.length > 0 ? general.join(' ') : 'See the messages at the fields.'} Everything you typed is still here.`,
      ]);
    }
  });

  return { form, initial, err, onSave, formError };
}
