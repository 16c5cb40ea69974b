/**
 * A table of rows as the lists show them: a caption for screen readers, the column heads
 * (number columns right-aligned), and a last column for each row's buttons when asked.
 */
import type { ReactNode } from 'react';

export interface Column {
  label: ReactNode;
  /** A number column (right-aligned). */
  num?: boolean;
}

/** The table; with `actions`, the last column's head (for the row's buttons) is read out but not shown. */
export function Table({
  caption,
  columns,
  actions,
  className,
  children,
}: {
  caption: string;
  columns: ReadonlyArray<Column | string>;
  actions?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={['table', className].filter(Boolean).join(' ')}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c, i) => {
            const col = typeof c === 'string' ? { label: c } : c;
            return (
              <th key={i} scope="col" className={col.num ? 'num' : undefined}>
                {col.label}
              </th>
            );
          })}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">{actions}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
