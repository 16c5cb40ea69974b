/**
 * Labelled form controls with their error and hint wired for screen readers
 * (aria-invalid, aria-describedby). They take react-hook-form's register() props as they
 * are (name, onChange, onBlur, ref).
 */
import {
  useId,
  useRef,
  type FocusEvent,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { typeToChooseHandlers } from './type-to-choose.ts';

interface FieldChrome {
  label: ReactNode;
  /** The message shown under the field (e.g. the server's issue for it). */
  error?: string | undefined;
  hint?: ReactNode;
  /** Hide the label visually (still read by screen readers). */
  hideLabel?: boolean;
}

function describedBy(ids: ReadonlyArray<unknown>): string | undefined {
  const s = ids.filter((x): x is string => typeof x === 'string' && x !== '').join(' ');
  return s || undefined;
}

function Chrome(
  props: FieldChrome & {
    id: string;
    errorId: string;
    hintId: string;
    className?: string;
    children: ReactNode;
  },
) {
  return (
    <div className={['field', props.error ? 'field-invalid' : '', props.className].filter(Boolean).join(' ')}>
      <label htmlFor={props.id} className={props.hideLabel ? 'visually-hidden' : 'field-label'}>
        {props.label}
      </label>
      {props.children}
      {props.hint && !props.error ? (
        <div id={props.hintId} className="field-hint">
          {props.hint}
        </div>
      ) : null}
      {props.error ? (
        <div id={props.errorId} className="field-error" role="alert">
          {props.error}
        </div>
      ) : null}
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>, FieldChrome {
  id?: string;
  fieldClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  error,
  hint,
  hideLabel,
  id,
  fieldClassName,
  className,
  ...input
}: TextFieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  return (
    <Chrome
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      id={fieldId}
      errorId={errorId}
      hintId={hintId}
      className={fieldClassName}
    >
      <input
        {...input}
        id={fieldId}
        className={['input', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy([
          error && errorId,
          !error && hint && hintId,
          input['aria-describedby'],
        ])}
      />
    </Chrome>
  );
}

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>, FieldChrome {
  id?: string;
  fieldClassName?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextArea({
  label,
  error,
  hint,
  hideLabel,
  id,
  fieldClassName,
  className,
  ...input
}: TextAreaProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Chrome
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      id={fieldId}
      errorId={`${fieldId}-error`}
      hintId={`${fieldId}-hint`}
      className={fieldClassName}
    >
      <textarea
        {...input}
        id={fieldId}
        className={['input', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy([error && `${fieldId}-error`, !error && hint && `${fieldId}-hint`])}
      />
    </Chrome>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'>, FieldChrome {
  id?: string;
  options: readonly SelectOption[];
  /** A first, empty choice (e.g. "— none —"). */
  placeholder?: string;
  fieldClassName?: string;
  ref?: Ref<HTMLSelectElement>;
  /** Typing a choice's name chooses it, at once and whatever the machine's speed (type-to-choose.ts). */
  typeToChoose?: boolean;
}

export function Select({
  label,
  error,
  hint,
  hideLabel,
  id,
  options,
  placeholder,
  fieldClassName,
  className,
  typeToChoose,
  ...select
}: SelectProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const typed = useRef('');
  const choose = typeToChoose ? typeToChooseHandlers(typed) : null;
  return (
    <Chrome
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      id={fieldId}
      errorId={`${fieldId}-error`}
      hintId={`${fieldId}-hint`}
      className={fieldClassName}
    >
      <select
        {...select}
        onFocus={(e: FocusEvent<HTMLSelectElement>) => {
          choose?.onFocus();
          select.onFocus?.(e);
        }}
        onKeyDown={(e: KeyboardEvent<HTMLSelectElement>) => {
          select.onKeyDown?.(e);
          if (!e.defaultPrevented) choose?.onKeyDown(e);
        }}
        id={fieldId}
        className={['input', 'select', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy([error && `${fieldId}-error`, !error && hint && `${fieldId}-hint`])}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </Chrome>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode;
  id?: string;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, id, className, ...input }: CheckboxProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className={['checkbox', className].filter(Boolean).join(' ')}>
      <input {...input} type="checkbox" id={fieldId} />
      <label htmlFor={fieldId}>{label}</label>
    </div>
  );
}
