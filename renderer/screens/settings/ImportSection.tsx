/**
 * CSV import: choose a file of contacts or donations, watch its progress, then download the
 * rows GiftDesk refused (row number and reason) to fix and import again. Rows already
 * imported are recognised by their externalId, so importing the fixed file twice is safe.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { IMPORT_KINDS, type ImportJob, type ImportKind } from '#shared/schemas/imports.ts';
import { type ApiError, errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { sentence } from '../../forms.ts';
import { readTab, writeTab } from '../../tab-storage.ts';
import { dateTime } from '../../ui/format.ts';
import { Button, Checkbox, FormError, ProgressBar, Select, TextField, useToast } from '../../ui/index.ts';
import { saveFile } from './download.ts';
import { SectionHeader } from './SectionHeader.tsx';

const KIND_LABELS: Record<ImportKind, string> = { contacts: 'Contacts', donations: 'Donations (gifts)' };
const LAST_JOB_KEY = 'giftdesk.settings.lastImport';
const count = new Intl.NumberFormat();

const rememberedJob = (): string | null => readTab(LAST_JOB_KEY, z.string());
/** Storage disabled: the job is shown until the screen is left. */
const rememberJob = (id: string | null): void => writeTab(LAST_JOB_KEY, id);

export function ImportSection() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const fileRef = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<ImportKind>('contacts');
  const [alreadyAtHq, setAlreadyAtHq] = useState(false);
  const [fileError, setFileError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(rememberedJob);
  // The same file imported before, its rows without an externalId: asked before it goes in twice.
  const [importedBefore, setImportedBefore] = useState<{ file: File; message: string } | null>(null);

  const start = useMutation({
    mutationFn: ({ file, again = false }: { file: File; again?: boolean }) =>
      api.imports.start(kind, file, !alreadyAtHq, again),
    onSuccess: (job) => {
      setImportedBefore(null);
      setJobId(job.id);
      rememberJob(job.id);
      qc.setQueryData(['imports', job.id], job);
      if (fileRef.current) fileRef.current.value = '';
    },
    onError: (err, { file }) => {
      if (isApiError(err) && err.status === 409 && err.code === 'imported_before') {
        setImportedBefore({ file, message: importedBeforeMessage(err) });
        return;
      }
      if (
        isApiError(err) &&
        (err.status === 413 ||
          (err.status === 400 && !err.details.some((d) => d.field === 'kind' || d.field === 'push')))
      ) {
        setFileError(err.message);
        fileRef.current?.focus();
      } else setFormError(errorMessage(err));
    },
  });

  const job = useQuery({
    queryKey: ['imports', jobId],
    queryFn: () => api.imports.get(jobId!),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 400 : false),
  });

  // When the import ends, everything it may have added is shown afresh elsewhere.
  const status = job.data?.status;
  useEffect(() => {
    if (status && status !== 'running') {
      void Promise.all(
        [qk.contacts, qk.donations, qk.campaigns, qk.account, qk.flags].map((queryKey) =>
          qc.invalidateQueries({ queryKey }),
        ),
      );
    }
  }, [status, qc]);
  // A remembered job that is no longer there (another data folder) is forgotten quietly.
  useEffect(() => {
    if (isApiError(job.error) && job.error.status === 404) {
      rememberJob(null);
      setJobId(null);
    }
  }, [job.error]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setFileError('Choose a CSV file to import.');
      fileRef.current?.focus();
      return;
    }
    setFileError(undefined);
    setImportedBefore(null);
    start.mutate({ file });
  };

  const downloadRejected = async (j: ImportJob) => {
    try {
      saveFile(await api.imports.rejectedCsv(j.id), `giftdesk-${j.kind}-rejected-rows.csv`);
    } catch (err) {
      toast.show({ message: errorMessage(err), tone: 'error' });
    }
  };

  const running = start.isPending || status === 'running';
  return (
    <section aria-labelledby="settings-import" className="settings-section">
      <SectionHeader id="settings-import" title="Import CSV">
        Bring contacts or past gifts in from a spreadsheet. Every row passes the same checks as one typed by
        hand; a row that does not is set aside with the reason, and the rest go in.
      </SectionHeader>
      <form className="panel settings-form" onSubmit={submit} noValidate aria-labelledby="import-title">
        <h3 id="import-title" className="panel-title">
          Import a file
        </h3>
        <div className="settings-form-row">
          <Select
            label="The file holds"
            value={kind}
            onChange={(e) => setKind(e.target.value as ImportKind)}
            options={IMPORT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            data-autofocus
          />
          <TextField
            ref={fileRef}
            label="CSV file"
            type="file"
            accept=".csv,text/csv"
            error={fileError}
            hint="First row: column names (firstName, lastName, primaryEmail… or donationAmount, donationDate, paymentMethod, contactExternalId…)"
            onChange={() => setFileError(undefined)}
          />
        </div>
        <p className="notice" id="import-rerun-notice">
          Running the same file again? Rows with an <code>externalId</code> column (your own reference) that
          GiftDesk already has are skipped. Rows <strong>without an externalId are added again</strong>: every
          one becomes a duplicate (GiftDesk asks first when it is the very file it imported before). Add an
          externalId to each row before importing a file you may need to run twice (for example after an
          interruption).
        </p>
        <Checkbox
          label="HQ already has these records (do not send them when syncing)"
          checked={alreadyAtHq}
          onChange={(e) => setAlreadyAtHq(e.target.checked)}
        />
        <div className="settings-form-actions">
          <Button type="submit" tone="primary" busy={running} disabled={running}>
            Import
          </Button>
        </div>
        <FormError message={formError} />
      </form>

      {importedBefore ? (
        <div className="panel" role="alertdialog" aria-labelledby="import-again-title">
          <h3 id="import-again-title" className="panel-title">
            This file was imported before
          </h3>
          <p className="notice notice-error">{importedBefore.message}</p>
          <div className="settings-form-actions">
            <Button onClick={() => setImportedBefore(null)} autoFocus>
              Do not import it
            </Button>
            <Button tone="danger" onClick={() => start.mutate({ file: importedBefore.file, again: true })}>
              Import it again anyway
            </Button>
          </div>
        </div>
      ) : null}

      {start.isPending ? (
        <div className="panel">
          <ProgressBar label="Uploading the file…" value={null} />
        </div>
      ) : null}
      {job.data ? (
        <ImportProgress
          job={job.data}
          onDownload={downloadRejected}
          onDismiss={() => {
            rememberJob(null);
            setJobId(null);
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * Why the file is asked about: the earlier import's day and time in the user's own time zone
 * (the server's message says it in UTC), or the server's words while that import still runs.
 */
function importedBeforeMessage(err: ApiError): string {
  const before = err.importedBefore;
  if (!before || before.running) return err.message;
  return `This file was imported on ${dateTime(before.at)} (${count.format(before.rowsAdded)} ${before.rowsAdded === 1 ? 'row' : 'rows'} added). Its rows have no externalId, so importing it again adds every one a second time.`;
}

function ImportProgress({
  job,
  onDownload,
  onDismiss,
}: {
  job: ImportJob;
  onDownload: (j: ImportJob) => void;
  onDismiss: () => void;
}) {
  const done = job.status === 'done';
  const failed = job.status === 'failed';
  const label =
    job.status === 'running'
      ? `Importing ${job.kind}…`
      : done
        ? `Import of ${job.kind} finished`
        : `Import of ${job.kind} stopped`;
  return (
    <div className="panel settings-import-job" aria-labelledby="import-job-title">
      <h3 id="import-job-title" className="panel-title">
        {done ? 'Import finished' : failed ? 'Import stopped' : 'Import in progress'}
      </h3>
      <ProgressBar
        label={label}
        value={job.processedRows}
        max={Math.max(job.totalRows, job.processedRows, 1)}
        detail={`${count.format(job.processedRows)} of ${count.format(job.totalRows)} rows`}
      />
      <p role="status" className="settings-import-summary">
        {count.format(job.imported)} imported
        {job.skipped > 0 ? `, ${count.format(job.skipped)} already here (skipped)` : ''},{' '}
        {count.format(job.rejectedCount)} rejected.
      </p>
      {failed && job.error ? (
        <p className="notice notice-error" role="alert">
          {sentence(job.error)} Rows imported before it stopped are kept; importing the same file again adds
          only the rest when its rows have an externalId (without one, every row would be added again).
        </p>
      ) : null}
      <div className="settings-form-actions">
        {job.rejectedCount > 0 ? (
          <Button tone={done ? 'primary' : 'secondary'} onClick={() => onDownload(job)}>
            Download the {count.format(job.rejectedCount)} rejected {job.rejectedCount === 1 ? 'row' : 'rows'}{' '}
            (CSV)
          </Button>
        ) : done ? (
          <span className="notice notice-ok">Every row was accepted.</span>
        ) : null}
        {job.status !== 'running' ? (
          <Button tone="quiet" onClick={onDismiss}>
            Dismiss
          </Button>
        ) : null}
      </div>
    </div>
  );
}
