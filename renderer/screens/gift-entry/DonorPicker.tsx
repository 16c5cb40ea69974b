/**
 * The donor box: type part of a name, email or organisation (accents and case ignored, by
 * the server's search), best match first (the server's relevance order: the whole typed
 * name, email, phone or organisation exactly, then every word whole, then prefixes); the
 * top match is highlighted, so Enter takes it (an Enter pressed while the matches for the
 * typed text are still on their way takes the top one as soon as they arrive). Only the keys
 * move the highlight: a mouse pointer resting where the list opens shows a hover style and
 * never changes which donor Enter takes; a click chooses the row clicked. Each match shows email, city, last gift and
 * total; namesakes among the matches also show organisation and phone, and never the same
 * line (donorLines), so two Robert Browns can be told apart. The last choice is "New donor",
 * which opens the inline new-donor fields with the typed name. When the search cannot be
 * answered (GiftDesk's own server is not answering, or the search failed) the list says so
 * and offers no "New donor": an empty list would invite a duplicate of a donor who is there.
 * The typed text stays, and the search reruns by itself when the server is back.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useApi } from '../../api/provider.tsx';
import { errorMessage } from '../../api/errors.ts';
import { qk } from '../../api/query-keys.ts';
import { useServerDown } from '../../api/server-reach.ts';
import { useDebounced } from '../../ui/index.ts';
import { donorLine, donorLines, donorName } from './donor-lines.ts';

export { donorLine, donorLines, donorName } from './donor-lines.ts';

export interface DonorPickerProps {
  selected: ContactSummary | null;
  onSelect: (c: ContactSummary) => void;
  onClear: () => void;
  /** "New donor" offered last in the list (none without it: a credit box names someone on file). */
  onNewDonor?: (typed: string) => void;
  /** What "New donor" will make of the typed text (the name's split), shown under it. */
  newDonorNote?: (typed: string) => string;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** The box's label ("Donor" by default). */
  label?: string;
  /** A hint after the label (a shortcut key). */
  hint?: string;
  /** Escape (its list closed) empties the box: one key clears a credit. */
  escapeClears?: boolean;
  /** The screen's first field (the donor box; a second box is not). */
  autoFocus?: boolean;
  /**
   * An Enter pressed before the matches arrived is kept (true) until they come (then onSelect,
   * or onPickMissed), or is forgotten (false: the text changed, the search failed). Given, the
   * owner moves the focus on at once (the volunteer typing ahead is already in the next
   * field) and the box keeps the Enter while it is left.
   */
  onPickPending?: (pending: boolean) => void;
  /** A kept Enter whose matches found no one on file: nothing is chosen (no new donor unseen). */
  onPickMissed?: (typed: string) => void;
}

/** The box's matches: eight by relevance, no total (it never shows their count; the server then counts less). */
const boxMatches = (api: ReturnType<typeof useApi>, search: string, signal: AbortSignal) =>
  api.contacts.summaries({ search, limit: 8, sortBy: 'relevance', total: 'false' }, signal);

export function DonorPicker(props: DonorPickerProps) {
  const { selected, onSelect, onClear, onNewDonor, error, inputRef } = props;
  const api = useApi();
  const id = useId();
  const [text, setText] = useState(selected ? donorName(selected) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // An Enter pressed before the matches for the typed text arrived: the text it was pressed
  // on, taken as soon as that text's matches are on screen (unless the text changed since).
  const [pendingEnter, setPendingEnter] = useState<string | null>(null);
  const search = useDebounced(text.trim(), 30);
  const enabled = open && search.length > 0 && !selected;

  // The box says who is chosen; a choice taken away from outside (a credit cleared from the
  // sticky line) empties it, while text typed over a choice stays.
  const [shownChoice, setShownChoice] = useState(selected);
  if ((shownChoice?.id ?? null) !== (selected?.id ?? null)) {
    setShownChoice(selected);
    if (selected) setText(donorName(selected));
    else if (shownChoice && text === donorName(shownChoice)) setText('');
  }

  const matches = useQuery({
    queryKey: qk.contactList({ picker: search }),
    queryFn: ({ signal }) => boxMatches(api, search, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const serverDown = useServerDown();
  const showList = open && !selected && text.trim().length > 0;
  // The search could not be answered: no list, and above all no "New donor" as if none matched.
  const failed: string | null = !showList
    ? null
    : serverDown
      ? 'GiftDesk’s server is not answering — nothing you type is lost; it will retry.'
      : matches.isError && search === text.trim()
        ? `The search failed: ${errorMessage(matches.error)} Nothing you typed is lost.`
        : null;
  // Matches for what is typed now (not a previous search still on screen).
  const current =
    enabled && search === text.trim() && !matches.isPlaceholderData && !failed
      ? (matches.data?.data ?? [])
      : [];
  const lines = donorLines(current);
  const options: Array<{ kind: 'contact'; c: ContactSummary; line: string } | { kind: 'new' }> = failed
    ? []
    : [
        ...current.map((c, i) => ({ kind: 'contact' as const, c, line: lines[i]! })),
        ...(text.trim() && onNewDonor ? [{ kind: 'new' as const }] : []),
      ];
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const waiting =
    showList && !failed && (search !== text.trim() || matches.isFetching) && current.length === 0;

  const choose = (i: number) => {
    const o = options[i];
    if (!o) return;
    setOpen(false);
    if (o.kind === 'contact') onSelect(o.c);
    else onNewDonor?.(text.trim());
  };

  // Whether a kept Enter waits for an owner that moved the focus on (typing ahead).
  const keepsPending = props.onPickPending !== undefined;
  const leavingForPick = useRef(false);
  const forgetPending = () => {
    if (pendingEnter === null) return;
    setPendingEnter(null);
    props.onPickPending?.(false);
  };

  useEffect(() => {
    if (pendingEnter === null || waiting) return;
    setPendingEnter(null);
    const ready = showList && pendingEnter === text.trim() && !matches.isError;
    // Taken while the focus is elsewhere: only a donor on file; a list offering only "New
    // donor" opens nothing behind the volunteer's back.
    if (ready && keepsPending && options[activeIndex]?.kind !== 'contact') {
      setOpen(false);
      props.onPickMissed?.(pendingEnter);
    } else if (ready) choose(activeIndex);
    else props.onPickPending?.(false);
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!showList) {
      if (e.key === 'Escape' && props.escapeClears && text !== '') {
        e.preventDefault(); // not the dialog's Escape: this one clears the box
        e.stopPropagation();
        setText('');
        setPendingEnter(null);
        if (selected) onClear();
        return;
      }
      if (e.key === 'ArrowDown' && text.trim()) {
        setOpen(true);
        e.preventDefault();
      }
      return;
    }
    if (e.key === 'ArrowDown') {
      setActive((a) => Math.min(a + 1, options.length - 1));
      e.preventDefault();
    } else if (e.key === 'ArrowUp') {
      setActive((a) => Math.max(a - 1, 0));
      e.preventDefault();
    } else if (e.key === 'Enter') {
      e.preventDefault(); // never save a gift while the donor is still being chosen
      if (!waiting) choose(activeIndex);
      else {
        setPendingEnter(text.trim());
        // The owner moves the focus on in this very keystroke: the box's blur must know already.
        leavingForPick.current = keepsPending;
        props.onPickPending?.(true);
        leavingForPick.current = false;
      }
    } else if (e.key === 'Escape') {
      setOpen(false);
      e.preventDefault();
    }
  };

  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  return (
    <div className={['field', 'donor-picker', error ? 'field-invalid' : ''].filter(Boolean).join(' ')}>
      <label className="field-label" htmlFor={`${id}-input`}>
        {props.label ?? 'Donor'}
        {props.hint ? <span className="muted"> {props.hint}</span> : null}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        className="input"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        data-autofocus={props.autoFocus === false ? undefined : true}
        placeholder="Name, email or organisation"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && options.length > 0 && !waiting ? optionId(activeIndex) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error ? `${id}-error` : null, selected ? `${id}-chosen` : null].filter(Boolean).join(' ') ||
          undefined
        }
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          forgetPending();
          setOpen(true);
          if (selected) onClear();
        }}
        onFocus={() => !selected && text.trim() && setOpen(true)}
        onBlur={() => {
          // A kept Enter stays while the volunteer types ahead in the next field.
          if ((pendingEnter !== null && keepsPending) || leavingForPick.current) return;
          setOpen(false);
          forgetPending();
        }}
        onKeyDown={onKeyDown}
      />
      {selected ? (
        <div className="donor-chosen" id={`${id}-chosen`}>
          {donorLine(selected)}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
      {failed ? (
        <div className="donor-list donor-failed" role="alert" data-testid="donor-search-failed">
          {failed}
        </div>
      ) : null}
      <ul
        id={listId}
        role="listbox"
        aria-label="Matching donors"
        className="donor-list"
        hidden={!showList || failed !== null}
      >
        {waiting ? (
          <li className="donor-option donor-waiting" aria-disabled="true">
            Searching…
          </li>
        ) : (
          options.map((o, i) => (
            <li
              key={o.kind === 'contact' ? o.c.id : 'new'}
              id={optionId(i)}
              role="option"
              aria-selected={i === activeIndex}
              className={[
                'donor-option',
                i === activeIndex ? 'donor-option-active' : '',
                o.kind === 'new' ? 'donor-option-new' : '',
              ]
                .filter(Boolean)
                .join(' ')}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(i);
              }}
            >
              {o.kind === 'contact' ? (
                <>
                  <span className="donor-option-name">
                    {donorName(o.c)}
                    {o.c.organization ? <span className="muted"> — {o.c.organization}</span> : null}
                  </span>
                  <span className="donor-option-line">{o.line}</span>
                </>
              ) : (
                <>
                  <span className="donor-option-name">+ New donor “{text.trim()}”</span>
                  {props.newDonorNote ? (
                    <span className="donor-option-line">{props.newDonorNote(text.trim())}</span>
                  ) : null}
                </>
              )}
            </li>
          ))
        )}
      </ul>
    </div>
  );
}
