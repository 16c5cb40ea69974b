/**
 * The contact list's keyboard. In the list: one row is in the Tab order (roving tabindex);
 * ↑ ↓ PageUp PageDown Home End move through it, ↑ on the first row goes back to the search
 * box, and typing a letter goes back to searching, letter included. In the search box: ↓
 * enters the list, Enter opens the top match (as soon as it arrives, if typed faster than
 * the search answers), Escape clears the text. A new search or order starts at the top.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { navigate } from '../../router.ts';
import { ROW_HEIGHT } from './contact-row.tsx';
import type { ListParams } from './queries.ts';

interface ListKeysOptions {
  /** The number of rows in the list. */
  count: number;
  params: ListParams;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  /** The list's scrolling rowgroup. */
  scrollRef: RefObject<HTMLDivElement | null>;
  searchRef: RefObject<HTMLInputElement | null>;
  /** The row active when the list was left (0 the first time): read on the first render. */
  initialActive: number;
  /** A letter typed in the list, for the search box. */
  onType: (key: string) => void;
}

/** The active row, and the keys of the list: moveTo (a row, focused) and onListKey. */
export function useListKeys(o: ListKeysOptions) {
  const { count, virtualizer, scrollRef, searchRef } = o;
  const [active, setActive] = useState(o.initialActive);
  const focusRow = useRef(false);
  const [, rerender] = useState(0);

  // A new search or order starts at the top (the first time: where the list was left).
  const firstParams = useRef(true);
  useEffect(() => {
    if (firstParams.current) {
      firstParams.current = false;
      if (o.initialActive > 0) virtualizer.scrollToIndex(o.initialActive, { align: 'center' });
      return;
    }
    setActive(0);
    virtualizer.scrollToOffset(0);
  }, [o.params]);

  // Keep the active row inside the list when the list shrinks.
  useEffect(() => {
    if (count > 0 && active > count - 1) setActive(count - 1);
  }, [count, active]);

  // Moving the focus to the active row once it is rendered (it may need a scroll and its page
  // first). Meanwhile the list itself holds the focus, so the keys pressed while the row loads
  // (End then ↑ at once) still move through the list; if the user went elsewhere, it stays there.
  useLayoutEffect(() => {
    if (!focusRow.current) return;
    const list = scrollRef.current;
    const now = document.activeElement;
    if (!list || (now && now !== document.body && !list.contains(now))) {
      focusRow.current = false;
      return;
    }
    const link = list.querySelector<HTMLAnchorElement>(`[data-index="${active}"] a`);
    if (link) {
      link.focus({ preventScroll: true });
      focusRow.current = false;
    }
  });

  const moveTo = (index: number) => {
    if (count === 0) return;
    const i = Math.max(0, Math.min(count - 1, index));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    const link = scrollRef.current?.querySelector<HTMLAnchorElement>(`[data-index="${i}"] a`);
    if (link) {
      focusRow.current = false;
      link.focus({ preventScroll: true });
    } else {
      // The row is not rendered yet (after the scroll) or its page is loading: the list holds
      // the focus until then (the row it had may scroll out of the DOM), the row takes it after.
      scrollRef.current?.focus({ preventScroll: true });
      focusRow.current = true;
      rerender((n) => n + 1);
    }
  };

  const pageRows = () =>
    Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);

  const onListKey = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const moves: Record<string, () => number> = {
      ArrowDown: () => active + 1,
      ArrowUp: () => active - 1,
      PageDown: () => active + pageRows(),
      PageUp: () => active - pageRows(),
      Home: () => 0,
      End: () => count - 1,
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      if (e.key === 'ArrowUp' && active === 0) {
        searchRef.current?.focus();
        return;
      }
      moveTo(move());
      return;
    }
    if (e.key.length === 1 && /\S/.test(e.key)) {
      // typing goes back to the search box, letter included
      e.preventDefault();
      o.onType(e.key);
      searchRef.current?.focus();
    }
  };

  return { active, setActive, moveTo, onListKey };
}

interface SearchKeysOptions {
  /** What is typed in the search box, and what the list was last asked for. */
  input: string;
  debounced: string;
  setInput: (text: string) => void;
  /** The first page of matches for `debounced`, once it is on screen. */
  pageZero: ContactSummary[] | undefined;
  error: Error | null;
  /** Entering the list: there is one, and ↓ focuses its active row. */
  count: number;
  enterList: () => void;
}

/** The search box's keys: ↓ into the list, Enter opens the top match, Escape clears. */
export function useSearchKeys(o: SearchKeysOptions) {
  const { input, debounced, pageZero, error } = o;
  // An Enter pressed before the matches of what is typed arrived: the text it was pressed on,
  // whose top match opens as soon as it is on screen (forgotten if the text changes first).
  const [pendingOpen, setPendingOpen] = useState<string | null>(null);
  useEffect(() => {
    if (pendingOpen === null) return;
    if (pendingOpen !== input || error) return setPendingOpen(null);
    if (debounced !== input || !pageZero) return;
    setPendingOpen(null);
    if (pageZero[0]) navigate('contacts', pageZero[0].id);
  }, [pendingOpen, input, debounced, pageZero, error]);

  return (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && o.count > 0) {
      e.preventDefault();
      o.enterList();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const top = pageZero?.[0];
      if (top && debounced === input) navigate('contacts', top.id);
      else if (input.trim() && (debounced !== input || !pageZero)) setPendingOpen(input);
    } else if (e.key === 'Escape' && input) {
      e.preventDefault();
      o.setInput('');
    }
  };
}
