/**
 * The contact list: search as you type (accent- and case-insensitive, word prefixes; best match
 * first — the server's relevance order — unless an order was picked), sort
 * by name, last gift, total given or when added, and scroll through 100,000 contacts without
 * a stutter. Only the rows on screen exist in the DOM (@tanstack/react-virtual); the rows
 * come in pages of 50 fetched for the part of the list in view, each read by the server
 * off an index, so the last page costs what the first does.
 *
 * Keyboard: ↓ from the search box enters the list; ↑ ↓ PageUp PageDown Home End move
 * through it (one row is in the Tab order: roving tabindex); Enter opens a contact; Enter in
 * the search box opens the top match; typing a letter in the list goes back to searching.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ContactSummarySortField } from '#shared/schemas/contact-views.ts';
import { errorMessage } from '../../api/errors.ts';
import { hrefFor, navigate } from '../../router.ts';
import { Button, EmptyState, Screen, Select, useDebounced } from '../../ui/index.ts';
import { LoadingRow, Row } from './contact-row.tsx';
import { count } from './format.ts';
import { BEST_MATCH, BY_NAME, DEFAULT_ORDER, RELEVANCE, SORTS, sortArrow, type Sort } from './list-sort.ts';
import { PAGE_SIZE, type ListParams } from './queries.ts';
import { useSummaryPages } from './use-summary-pages.ts';

const ROW_HEIGHT = 52;

/**
 * What the list was showing, so coming back from a contact finds it as it was left: the text
 * and the order picked (none: best match while searching, else by name).
 */
const remembered: { input: string; picked: Sort | null; active: number } = {
  input: '',
  picked: null,
  active: 0,
};

export function ContactList() {
  const [input, setInput] = useState(remembered.input);
  // 10 ms: the events of one paste still make one request; a search answers in well under a
  // keystroke's interval at 100,000 contacts, so a longer wait was the largest part of
  // search → results (bench/renderer.ts: 45 of 88 ms at p50 with 40 ms; the goal is 100 ms).
  const debounced = useDebounced(input, 10);
  const [picked, setPicked] = useState<Sort | null>(remembered.picked);
  const searchText = debounced.trim();
  // A search lists the best match first unless an order was picked; best match needs a search.
  const sort = picked ?? (searchText !== '' ? RELEVANCE : BY_NAME);
  const sortBy = sort.by;
  const sortOrder = sort.order;
  const params: ListParams = useMemo(
    () => ({ search: searchText, sortBy, sortOrder }),
    [searchText, sortBy, sortOrder],
  );
  const [active, setActive] = useState(remembered.active);
  const focusRow = useRef(false);
  const [, rerender] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const statusId = useId();
  const { rowsByPage, isStale, total, error, setRange, retry } = useSummaryPages(params);
  const loadingFirst = total === null && !error;

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    setRange((r) => (r[0] === first && r[1] === last ? r : [first, last]));
  }, [first, last]);

  // A new search or order starts at the top.
  const firstParams = useRef(true);
  useEffect(() => {
    if (firstParams.current) {
      firstParams.current = false;
      if (remembered.active > 0) virtualizer.scrollToIndex(remembered.active, { align: 'center' });
      return;
    }
    setActive(0);
    virtualizer.scrollToOffset(0);
  }, [params]);

  useEffect(() => {
    remembered.input = input;
    remembered.picked = picked;
    remembered.active = active;
  }, [input, picked, active]);

  // Keep the active row inside the list when the list shrinks.
  const count_ = total ?? 0;
  useEffect(() => {
    if (count_ > 0 && active > count_ - 1) setActive(count_ - 1);
  }, [count_, active]);

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
    if (count_ === 0) return;
    const i = Math.max(0, Math.min(count_ - 1, index));
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
      End: () => count_ - 1,
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
      setInput((v) => v + e.key);
      searchRef.current?.focus();
    }
  };

  // An Enter pressed before the matches of what is typed arrived: the text it was pressed on,
  // whose top match opens as soon as it is on screen (forgotten if the text changes first).
  const [pendingOpen, setPendingOpen] = useState<string | null>(null);
  const pageZero = rowsByPage.get(0);
  useEffect(() => {
    if (pendingOpen === null) return;
    if (pendingOpen !== input || error) return setPendingOpen(null);
    if (debounced !== input || !pageZero) return;
    setPendingOpen(null);
    if (pageZero[0]) navigate('contacts', pageZero[0].id);
  }, [pendingOpen, input, debounced, pageZero, error]);

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && count_ > 0) {
      e.preventDefault();
      moveTo(active);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const top = pageZero?.[0];
      if (top && debounced === input) navigate('contacts', top.id);
      else if (input.trim() && (debounced !== input || !pageZero)) setPendingOpen(input);
    } else if (e.key === 'Escape' && input) {
      e.preventDefault();
      setInput('');
    }
  };

  const setSort = (by: ContactSummarySortField, order: 'asc' | 'desc') => {
    setPicked(by === 'relevance' ? null : { by, order });
  };
  const headerSort = (by: ContactSummarySortField) => {
    if (sortBy === by) setSort(by, sortOrder === 'asc' ? 'desc' : 'asc');
    else setSort(by, DEFAULT_ORDER[by]);
  };
  const ariaSort = (by: ContactSummarySortField) =>
    sortBy === by ? (sortOrder === 'asc' ? 'ascending' : 'descending') : undefined;

  const searching = params.search !== '';
  const statusText = error
    ? ''
    : loadingFirst
      ? 'Loading contacts…'
      : searching
        ? `${count(total ?? 0, 'contact')} ${total === 1 ? 'matches' : 'match'} “${params.search}”`
        : count(total ?? 0, 'contact');

  return (
    <Screen
      title="Contacts"
      actions={
        <a className="btn btn-primary" href={hrefFor('contacts', 'new')}>
          New contact
        </a>
      }
    >
      <div className="contacts-toolbar">
        <div className="field contacts-search">
          <label className="field-label" htmlFor="contact-search">
            Search contacts
          </label>
          <input
            id="contact-search"
            ref={searchRef}
            className="input"
            type="search"
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            placeholder="Name, email or organization"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={onSearchKey}
            aria-describedby={statusId}
            aria-controls="contact-rows"
          />
        </div>
        <Select
          label="Sort by"
          fieldClassName="contacts-sort"
          value={`${sortBy}:${sortOrder}`}
          options={searchText !== '' ? [BEST_MATCH, ...SORTS] : SORTS}
          onChange={(e) => {
            const [by, order] = e.target.value.split(':') as [ContactSummarySortField, 'asc' | 'desc'];
            setSort(by, order);
          }}
        />
        <p id={statusId} className="contacts-status muted" role="status" aria-live="polite">
          {statusText}
          {isStale && !loadingFirst ? <span className="visually-hidden"> (updating)</span> : null}
        </p>
      </div>

      {error ? (
        <div className="notice notice-error contacts-error" role="alert">
          The contacts could not be loaded: {errorMessage(error)}{' '}
          <Button tone="quiet" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : null}

      {!error && total === 0 ? (
        searching ? (
          <EmptyState
            title={`No contact matches “${params.search}”.`}
            action={
              <div className="contacts-empty-actions">
                <Button
                  onClick={() => {
                    setInput('');
                    searchRef.current?.focus();
                  }}
                >
                  Clear the search
                </Button>
                <a className="btn btn-primary" href={hrefFor('contacts', 'new')}>
                  New contact
                </a>
              </div>
            }
          >
            Search looks at the start of each word of a name, email or organization; accents and capitals do
            not matter.
          </EmptyState>
        ) : (
          <EmptyState
            title="No contacts yet."
            action={
              <a className="btn btn-primary" href={hrefFor('contacts', 'new')}>
                Add the first contact
              </a>
            }
          >
            Contacts appear here as they are added, imported in Settings, or entered with a gift.
          </EmptyState>
        )
      ) : null}

      <div
        className={['contacts-table', total === 0 || error ? 'is-hidden' : ''].join(' ')}
        role="table"
        aria-label="Contacts"
        aria-rowcount={(total ?? 0) + 1}
        aria-busy={loadingFirst || isStale || undefined}
      >
        <div role="rowgroup" className="contacts-head">
          <div role="row" aria-rowindex={1} className="crow crow-head">
            <div role="columnheader" className="ccell ccell-name" aria-sort={ariaSort('name')}>
              <button type="button" className="sort-button" onClick={() => headerSort('name')}>
                Name{sortArrow(sortBy === 'name', sortOrder)}
              </button>
            </div>
            <div role="columnheader" className="ccell ccell-email">
              Email
            </div>
            <div role="columnheader" className="ccell ccell-phone">
              Phone
            </div>
            <div role="columnheader" className="ccell ccell-city">
              City
            </div>
            <div role="columnheader" className="ccell ccell-date" aria-sort={ariaSort('lastDonationDate')}>
              <button type="button" className="sort-button" onClick={() => headerSort('lastDonationDate')}>
                Last gift{sortArrow(sortBy === 'lastDonationDate', sortOrder)}
              </button>
            </div>
            <div role="columnheader" className="ccell ccell-money" aria-sort={ariaSort('totalDonations')}>
              <button type="button" className="sort-button" onClick={() => headerSort('totalDonations')}>
                Total given{sortArrow(sortBy === 'totalDonations', sortOrder)}
              </button>
            </div>
          </div>
        </div>
        <div
          role="rowgroup"
          id="contact-rows"
          className="contacts-scroll"
          ref={scrollRef}
          tabIndex={-1}
          onKeyDown={onListKey}
        >
          <div role="presentation" className="contacts-spacer" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rowsByPage.get(Math.floor(item.index / PAGE_SIZE))?.[item.index % PAGE_SIZE];
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-index={item.index}
                  className={['crow', item.index === active ? 'is-active' : '', row ? '' : 'is-loading'].join(
                    ' ',
                  )}
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                  onClick={(e) => {
                    if (!row || (e.target as HTMLElement).closest('a')) return;
                    navigate('contacts', row.id);
                  }}
                >
                  {row ? (
                    <Row
                      row={row}
                      tabIndex={item.index === active ? 0 : -1}
                      onFocus={() => setActive(item.index)}
                    />
                  ) : (
                    <LoadingRow />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </Screen>
  );
}
