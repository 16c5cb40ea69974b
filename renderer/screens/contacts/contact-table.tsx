/**
 * The contact list's table: its header row, where the name, last gift and total given
 * headers sort the list (pressed again: the other way), and the rows in view, each placed
 * at its offset in a spacer as tall as the whole list and filled once its page arrives.
 */
import type { VirtualItem } from '@tanstack/react-virtual';
import type { ContactSummary, ContactSummarySortField } from '#shared/schemas/contact-views.ts';
import { navigate } from '../../router.ts';
import { LoadingRow, ROW_HEIGHT, Row } from './contact-row.tsx';
import { sortArrow } from './list-sort.ts';
import { PAGE_SIZE } from './queries.ts';

interface SortState {
  sortBy: ContactSummarySortField;
  sortOrder: 'asc' | 'desc';
  /** A sortable header pressed. */
  onSort: (by: ContactSummarySortField) => void;
}

/** The header row: Name, Email, Phone, City, Last gift, Total given. */
export function ContactsHead(props: SortState) {
  return (
    <div role="rowgroup" className="contacts-head">
      <div role="row" aria-rowindex={1} className="crow crow-head">
        <SortHeader {...props} by="name" cell="name" label="Name" />
        <div role="columnheader" className="ccell ccell-email">
          Email
        </div>
        <div role="columnheader" className="ccell ccell-phone">
          Phone
        </div>
        <div role="columnheader" className="ccell ccell-city">
          City
        </div>
        <SortHeader {...props} by="lastDonationDate" cell="date" label="Last gift" />
        <SortHeader {...props} by="totalDonations" cell="money" label="Total given" />
      </div>
    </div>
  );
}

/** A column header that sorts by its column, saying (aria-sort, an arrow) when it does. */
function SortHeader({
  sortBy,
  sortOrder,
  onSort,
  by,
  cell,
  label,
}: SortState & { by: ContactSummarySortField; cell: string; label: string }) {
  const on = sortBy === by;
  return (
    <div
      role="columnheader"
      className={`ccell ccell-${cell}`}
      aria-sort={on ? (sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button type="button" className="sort-button" onClick={() => onSort(by)}>
        {label}
        {sortArrow(on, sortOrder)}
      </button>
    </div>
  );
}

/** The rows in view; the active one is the list's one stop in the Tab order. */
export function ContactRows({
  items,
  totalSize,
  rowsByPage,
  active,
  onFocusRow,
}: {
  items: VirtualItem[];
  /** The whole list's height. */
  totalSize: number;
  rowsByPage: Map<number, ContactSummary[]>;
  active: number;
  onFocusRow: (index: number) => void;
}) {
  return (
    <div role="presentation" className="contacts-spacer" style={{ height: totalSize }}>
      {items.map((item) => {
        const row = rowsByPage.get(Math.floor(item.index / PAGE_SIZE))?.[item.index % PAGE_SIZE];
        return (
          <div
            key={item.key}
            role="row"
            aria-rowindex={item.index + 2}
            data-index={item.index}
            className={['crow', item.index === active ? 'is-active' : '', row ? '' : 'is-loading'].join(' ')}
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
                onFocus={() => onFocusRow(item.index)}
              />
            ) : (
              <LoadingRow />
            )}
          </div>
        );
      })}
    </div>
  );
}
