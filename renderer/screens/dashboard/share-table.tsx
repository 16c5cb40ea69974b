/**
 * A split of the figures (by campaign, by station): each row's gifts and total with a bar
 * against the largest, and the whole in the footer.
 */
import type { ReactNode } from 'react';
import { money, whole } from '../../ui/format.ts';

export interface ShareRow {
  key: string;
  label: ReactNode;
  count: number;
  total: number;
  /** Extra attributes of the row (test ids, data-*). */
  attrs?: Record<string, string>;
}

export function ShareTable(props: {
  heading: string;
  rows: readonly ShareRow[];
  footLabel: string;
  count: number;
  total: number;
  testId?: string;
}) {
  const max = Math.max(...props.rows.map((r) => r.total), 0.01);
  return (
    <table className="table campaign-table" {...(props.testId ? { 'data-testid': props.testId } : {})}>
      <thead>
        <tr>
          <th scope="col">{props.heading}</th>
          <th scope="col" className="num">
            Gifts
          </th>
          <th scope="col" className="num">
            Total
          </th>
          <th scope="col" className="share-col">
            <span className="visually-hidden">Share of the largest</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.key} {...r.attrs}>
            <th scope="row">{r.label}</th>
            <td className="num">{whole(r.count)}</td>
            <td className="num">{money(r.total)}</td>
            <td className="share-col" aria-hidden="true">
              <span className="share-bar" style={{ width: `${Math.max(2, (r.total / max) * 100)}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{props.footLabel}</th>
          <td className="num">{whole(props.count)}</td>
          <td className="num">{money(props.total)}</td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
