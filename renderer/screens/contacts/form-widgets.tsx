/**
 * The contact form's own inputs: a custom field by its type, the "Primary" box of a
 * phone/email/address, the add/remove list of a sub-record collection, and the tag input.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Button, Checkbox, Select, TextField } from '../../ui/index.ts';
import { EMPTY_ITEM, type Collection, type ContactFormValues, type CustomFieldDef } from './form-model.ts';

export function CustomFieldInput({
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

export function PrimaryBox({
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

export function SubRecordEditor({
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

export function TagInput({
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
