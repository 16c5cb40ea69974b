/**
 * CSV export of the account's contacts or donations, in the columns the import reads (an
 * export imports back without adding anything twice).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { IMPORT_KINDS, type ImportKind } from '#shared/schemas/imports.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ProgressBar } from '../../ui/index.ts';
import { saveFile, todayStamp } from './download.ts';
import { SectionHeader } from './SectionHeader.tsx';

const count = new Intl.NumberFormat();

export function ExportSection() {
  const api = useApi();
  const account = useQuery({ queryKey: qk.account, queryFn: () => api.account() });
  const exporting = useMutation({
    mutationFn: async (kind: ImportKind) => {
      const blob = await api.exports.csv(kind);
      saveFile(blob, `giftdesk-${kind}-${todayStamp()}.csv`);
      return { kind, bytes: blob.size };
    },
  });
  const n = (kind: ImportKind) =>
    account.data ? (kind === 'contacts' ? account.data.contacts : account.data.donations) : null;

  return (
    <section aria-labelledby="settings-export" className="settings-section">
      <SectionHeader id="settings-export" title="Export CSV">
        Everything in this GiftDesk as spreadsheet files, in the same columns the import reads.
      </SectionHeader>
      <div className="panel settings-export">
        {IMPORT_KINDS.map((kind, i) => {
          const total = n(kind);
          return (
            <div key={kind} className="settings-export-row">
              <div>
                <h3>{kind === 'contacts' ? 'Contacts' : 'Donations'}</h3>
                <p className="muted">
                  {total === null
                    ? '…'
                    : `${count.format(total)} ${kind === 'contacts' ? (total === 1 ? 'contact' : 'contacts') : total === 1 ? 'gift' : 'gifts'}`}
                </p>
              </div>
              <Button
                tone="primary"
                data-autofocus={i === 0 ? true : undefined}
                busy={exporting.isPending && exporting.variables === kind}
                disabled={exporting.isPending}
                onClick={() => exporting.mutate(kind)}
              >
                Export {kind} (CSV)
              </Button>
            </div>
          );
        })}
        {exporting.isPending ? (
          <ProgressBar label={`Exporting ${exporting.variables}…`} value={null} />
        ) : null}
        {exporting.isSuccess ? (
          <p role="status" className="notice notice-ok">
            Saved giftdesk-{exporting.data.kind}-{todayStamp()}.csv (
            {count.format(Math.ceil(exporting.data.bytes / 1024))} KB).
          </p>
        ) : null}
        {exporting.isError ? (
          <p role="alert" className="notice notice-error">
            The export did not finish: {errorMessage(exporting.error)}
          </p>
        ) : null}
      </div>
    </section>
  );
}
