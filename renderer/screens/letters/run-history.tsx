/**
 * The account's print runs, newest first: kind, when, documents, gifts, total and whether
 * they were marked as sent, each with its PDF and, not yet marked, "Mark as sent". A run that
 * found nothing to print (a script's, or an older version's) is left out.
 */
import { useQuery } from '@tanstack/react-query';
import { formatDollars } from '#shared/money.ts';
import type { LetterRun } from '#shared/schemas/letters.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, Loaded, Table } from '../../ui/index.ts';
import { dateTime, whole } from '../../ui/format.ts';
import { KIND_LABEL } from './choice-form.tsx';
import { useMarkSent } from './run-panel.tsx';

export function RunHistory({ onShow }: { onShow: (run: LetterRun) => void }) {
  const api = useApi();
  const runs = useQuery({
    queryKey: qk.letterRuns,
    queryFn: () => api.letters.runs(),
    // While one of them renders, its figures move.
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === 'rendering') ? 1000 : false),
  });
  const mark = useMarkSent();
  // A run that found nothing holds no PDF and marks nothing: it is not a print run to list.
  const list = (runs.data?.runs ?? []).filter((r) => r.status !== 'done' || r.documents > 0);
  return (
    <section className="letters-history" aria-labelledby="letters-history-title">
      <h2 id="letters-history-title">Print runs</h2>
      <Loaded
        query={runs}
        noun="print runs"
        isEmpty={list.length === 0}
        empty={
          <EmptyState title="No letters printed yet.">
            Choose what to print above and press Make letters; each run is listed here with its PDF.
          </EmptyState>
        }
      >
        <Table
          caption="Print runs, newest first"
          className="letters-runs"
          columns={[
            'Kind',
            'Made',
            { label: 'Documents', num: true },
            { label: 'Gifts', num: true },
            { label: 'Total', num: true },
            'Sent',
          ]}
          actions="Actions"
        >
          {list.map((r) => (
            <tr key={r.id} data-run-id={r.id}>
              <td>{KIND_LABEL[r.kind]}</td>
              <td>{dateTime(r.createdAt)}</td>
              <td className="num">
                {r.status === 'rendering' ? `${r.rendered} of ${r.documents}` : whole(r.documents)}
              </td>
              <td className="num">{whole(r.gifts)}</td>
              <td className="num">{formatDollars(r.total)}</td>
              <td>
                {r.status === 'failed' ? (
                  <span className="badge badge-warn">failed</span>
                ) : r.markedSentAt ? (
                  <span className="badge badge-ok">sent {dateTime(r.markedSentAt)}</span>
                ) : (
                  <span className="badge">not marked</span>
                )}
              </td>
              <td className="letters-row-actions">
                <Button
                  tone="quiet"
                  onClick={() => onShow(r)}
                  aria-label={`Show the run of ${dateTime(r.createdAt)}`}
                >
                  Show
                </Button>
                {r.status === 'done' && !r.markedSentAt && r.gifts > 0 ? (
                  <Button
                    tone="quiet"
                    onClick={() => mark.ask(r)}
                    aria-label={`Mark as sent… the run of ${dateTime(r.createdAt)}`}
                  >
                    Mark as sent…
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      </Loaded>
      {mark.dialog}
    </section>
  );
}
