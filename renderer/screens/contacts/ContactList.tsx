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
 * the search box opens the top match; typing a letter in the list goes back to searching
 * (use-list-keyboard.ts). The table's header and rows are in contact-table.tsx.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import type { ContactSummarySortField } from '#shared/schemas/contact-views.ts';
import { errorMessage } from '../../api/errors.ts';
import { hrefFor } from '../../router.ts';
import { Button, EmptyState, Screen, Select, useDebounced } from '../../ui/index.ts';
import { ROW_HEIGHT } from './contact-row.tsx';
import { ContactRows, ContactsHead } from './contact-table.tsx';
import { count } from './format.ts';
import { BEST_MATCH, BY_NAME, DEFAULT_ORDER, RELEVANCE, SORTS, type Sort } from './list-sort.ts';
import type { ListParams } from './queries.ts';
import { useListKeys, useSearchKeys } from './use-list-keyboard.ts';
import { useSummaryPages } from './use-summary-pages.ts';

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
  const searchText = debounced.trim();
  const order = useListOrder(searchText);
  const { sortBy, sortOrder } = order;
  const params: ListParams = useMemo(
    () => ({ search: searchText, sortBy, sortOrder }),
    [searchText, sortBy, sortOrder],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const statusId = useId();
  const { rowsByPage, isStale, total, error, setRange, retry } = useSummaryPages(params);
  const loadingFirst = total === null && !error;
  const { virtualizer, items } = useRowWindow(total ?? 0, scrollRef, setRange);

  const count_ = total ?? 0;
  const { active, setActive, moveTo, onListKey } = useListKeys({
    count: count_,
    params,
    virtualizer,
    scrollRef,
    searchRef,
    initialActive: remembered.active,
    onType: (key) => setInput((v) => v + key),
  });

  useEffect(() => {
    remembered.input = input;
    remembered.picked = order.picked;
    remembered.active = active;
  }, [input, order.picked, active]);

  const onSearchKey = useSearchKeys({
    input,
    debounced,
    setInput,
    pageZero: rowsByPage.get(0),
    error,
    count: count_,
    enterList: () => moveTo(active),
  });

  const searching = params.search !== '';
  return (
    <Screen
      title="Contacts"
      actions={
        <a className="btn btn-primary" href={hrefFor('contacts', 'new')}>
          New contact
        </a>
      }
    >
      <ListToolbar
        searchRef={searchRef}
        input={input}
        setInput={setInput}
        onSearchKey={onSearchKey}
        statusId={statusId}
        order={order}
        offerBestMatch={searchText !== ''}
        status={error ? '' : listStatus(loadingFirst ? null : (total ?? 0), params.search)}
        updating={isStale && !loadingFirst}
      />

      {error ? <LoadError error={error} retry={retry} /> : null}

      {!error && total === 0 ? (
        <NoContacts
          search={searching ? params.search : null}
          onClear={() => {
            setInput('');
            searchRef.current?.focus();
          }}
        />
      ) : null}

      <div
        className={['contacts-table', total === 0 || error ? 'is-hidden' : ''].join(' ')}
        role="table"
        aria-label="Contacts"
        aria-rowcount={(total ?? 0) + 1}
        aria-busy={loadingFirst || isStale || undefined}
      >
        <ContactsHead sortBy={sortBy} sortOrder={sortOrder} onSort={order.headerSort} />
        <div
          role="rowgroup"
          id="contact-rows"
          className="contacts-scroll"
          ref={scrollRef}
          tabIndex={-1}
          onKeyDown={onListKey}
        >
          <ContactRows
            items={items}
            totalSize={virtualizer.getTotalSize()}
            rowsByPage={rowsByPage}
            active={active}
            onFocusRow={setActive}
          />
        </div>
      </div>
    </Screen>
  );
}

type ListOrder = ReturnType<typeof useListOrder>;

/**
 * The order shown: the one picked, else the best match first while searching (best match
 * needs a search), else by name; a pick from the menu (setSort) or a header (headerSort:
 * its column's first order, or the other way if it is already the order).
 */
function useListOrder(searchText: string) {
  const [picked, setPicked] = useState<Sort | null>(remembered.picked);
  const sort = picked ?? (searchText !== '' ? RELEVANCE : BY_NAME);
  const sortBy = sort.by;
  const sortOrder = sort.order;
  const setSort = (by: ContactSummarySortField, order: 'asc' | 'desc') => {
    setPicked(by === 'relevance' ? null : { by, order });
  };
  const headerSort = (by: ContactSummarySortField) => {
    if (sortBy === by) setSort(by, sortOrder === 'asc' ? 'desc' : 'asc');
    else setSort(by, DEFAULT_ORDER[by]);
  };
  return { picked, sortBy, sortOrder, setSort, headerSort };
}

/** The rows in view of `count` (only these are rendered), told to the pages hook as they change. */
function useRowWindow(
  count: number,
  scrollRef: RefObject<HTMLDivElement | null>,
  setRange: Dispatch<SetStateAction<[number, number]>>,
) {
  const virtualizer = useVirtualizer({
    count,
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
  return { virtualizer, items };
}

/** The status line: loading (total null), the count, or the count of matches for `search`. */
function listStatus(total: number | null, search: string): string {
  if (total === null) return 'Loading contacts…';
  if (search === '') return count(total, 'contact');
  return `${count(total, 'contact')} ${total === 1 ? 'matches' : 'match'} “${search}”`;
}

/** The "Sort by" menu: every order, and best match while searching. */
function SortSelect({ order, offerBestMatch }: { order: ListOrder; offerBestMatch: boolean }) {
  return (
    <Select
      label="Sort by"
      fieldClassName="contacts-sort"
      value={`${order.sortBy}:${order.sortOrder}`}
      options={offerBestMatch ? [BEST_MATCH, ...SORTS] : SORTS}
      onChange={(e) => {
        const [by, sortOrder] = e.target.value.split(':') as [ContactSummarySortField, 'asc' | 'desc'];
        order.setSort(by, sortOrder);
      }}
    />
  );
}

/** Above the list: the search box (described by the status line), the order, the status line. */
function ListToolbar(props: {
  searchRef: RefObject<HTMLInputElement | null>;
  input: string;
  setInput: (text: string) => void;
  onSearchKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  statusId: string;
  order: ListOrder;
  offerBestMatch: boolean;
  status: string;
  /** New rows are on their way (said to screen readers only). */
  updating: boolean;
}) {
  return (
    <div className="contacts-toolbar">
      <div className="field contacts-search">
        <label className="field-label" htmlFor="contact-search">
          Search contacts
        </label>
        <input
          id="contact-search"
          ref={props.searchRef}
          className="input"
          type="search"
          data-autofocus
          autoComplete="off"
          spellCheck={false}
          placeholder="Name, email or organization"
          value={props.input}
          onChange={(e) => props.setInput(e.target.value)}
          onKeyDown={props.onSearchKey}
          aria-describedby={props.statusId}
          aria-controls="contact-rows"
        />
      </div>
      <SortSelect order={props.order} offerBestMatch={props.offerBestMatch} />
      <p id={props.statusId} className="contacts-status muted" role="status" aria-live="polite">
        {props.status}
        {props.updating ? <span className="visually-hidden"> (updating)</span> : null}
      </p>
    </div>
  );
}

/** The list could not be loaded: why, and a retry. */
function LoadError({ error, retry }: { error: Error; retry: () => void }) {
  return (
    <div className="notice notice-error contacts-error" role="alert">
      The contacts could not be loaded: {errorMessage(error)}{' '}
      <Button tone="quiet" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/** An empty list: no contact matches the search (`search`), or no contact at all (null). */
function NoContacts({ search, onClear }: { search: string | null; onClear: () => void }) {
  if (search !== null)
    return (
      <EmptyState
        title={`No contact matches “${search}”.`}
        action={
          <div className="contacts-empty-actions">
            <Button onClick={onClear}>Clear the search</Button>
            <a className="btn btn-primary" href={hrefFor('contacts', 'new')}>
              New contact
            </a>
          </div>
        }
      >
        Search looks at the start of each word of a name, email or organization; accents and capitals do not
        matter.
      </EmptyState>
    );
  return (
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
  );
}
