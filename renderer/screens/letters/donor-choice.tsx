/**
 * "One donor only" in the Letters screen's choice: empty, a run covers every donor; typed, the
 * matching donors are offered (with their email, phone or organisation, so three Robert Browns
 * can be told apart), and a pick narrows the run to that donor (the run's `contactId`). By
 * keyboard: type, Down to the matches, Enter picks; Enter in the box picks the first match.
 * The donor page's "Year-end statement" opens the screen with its donor already picked.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ContactListItem } from '#shared/schemas/contacts.ts';
import { useApi } from '../../api/provider.tsx';
import { Button, useDebounced } from '../../ui/index.ts';

export interface DonorPicked {
  id: string;
  /** How the choice shows the donor: the name, then what tells namesakes apart. */
  label: string;
}

export function donorLabel(
  c: Pick<ContactListItem, 'firstName' | 'lastName' | 'email' | 'phone' | 'organization'>,
) {
  const name = `${c.firstName} ${c.lastName}`.trim();
  const which = c.email ?? c.phone ?? c.organization;
  return which ? `${name} · ${which}` : name;
}

export function DonorChoice({
  value,
  onChange,
}: {
  value: DonorPicked | null;
  onChange: (next: DonorPicked | null) => void;
}) {
  const api = useApi();
  const id = useId();
  const [text, setText] = useState('');
  const box = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const asked = useDebounced(text.trim(), 200);
  const matches = useQuery({
    queryKey: ['letters', 'donor-choice', asked],
    queryFn: ({ signal }) => api.contacts.list({ search: asked, limit: 6 }, signal),
    enabled: value === null && asked.length >= 2,
    staleTime: 10_000,
  });
  const found = asked.length >= 2 && asked === text.trim() ? (matches.data?.data ?? []) : [];
  const pick = (c: ContactListItem) => {
    onChange({ id: c.id, label: donorLabel(c) });
    setText('');
  };

  if (value)
    return (
      <div className="field letters-donor">
        <span className="field-label" id={`${id}-label`}>
          One donor only
        </span>
        <div className="letters-donor-picked" aria-labelledby={`${id}-label`}>
          <strong data-testid="letters-donor">{value.label}</strong>
          <Button
            onClick={() => {
              onChange(null);
              requestAnimationFrame(() => box.current?.focus());
            }}
          >
            All donors
          </Button>
        </div>
      </div>
    );

  const onBoxKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && found.length > 0) {
      e.preventDefault();
      list.current?.querySelector<HTMLButtonElement>('button')?.focus();
    } else if (e.key === 'Enter' && text.trim() !== '') {
      // Enter in the box picks (never makes letters for every donor by mistake).
      e.preventDefault();
      if (found[0]) pick(found[0]);
    }
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' && at < buttons.length - 1) {
      e.preventDefault();
      buttons[at + 1]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (at <= 0) box.current?.focus();
      else buttons[at - 1]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      box.current?.focus();
    }
  };
  return (
    <div className="field letters-donor">
      <label className="field-label" htmlFor={`${id}-box`}>
        One donor only
      </label>
      <input
        id={`${id}-box`}
        ref={box}
        className="input"
        type="search"
        autoComplete="off"
        placeholder="All donors — or type a name"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onBoxKey}
        aria-describedby={`${id}-hint`}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {asked.length >= 2 && matches.isSuccess && found.length === 0 && asked === text.trim()
          ? `No donor matches “${asked}”.`
          : 'Empty: every donor. Type two letters or more to choose one.'}
      </p>
      {found.length > 0 ? (
        <ul className="letters-donor-matches" aria-label="Matching donors" ref={list} onKeyDown={onListKey}>
          {found.map((c) => (
            <li key={c.id}>
              <button type="button" className="btn btn-quiet" onClick={() => pick(c)}>
                {donorLabel(c)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
