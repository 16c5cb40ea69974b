/**
 * The donor page's History panel: who added the donor and who changed what (each field before
 * and after), oldest first; shut until asked for, then read (and kept current like the page).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button } from '../../ui/index.ts';
import { HistoryLines } from '../gift-entry/history-lines.tsx';
import { Section } from './contact-details.tsx';

export function DonorHistory({ id }: { id: string }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const history = useQuery({
    queryKey: [...qk.contact(id), 'history'],
    queryFn: () => api.contacts.history(id),
    enabled: open,
  });
  return (
    <Section title="History" id="contact-history">
      <Button tone="quiet" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide who changed this donor' : 'Show who changed this donor'}
      </Button>
      {open && history.isPending ? <p className="muted">Loading history…</p> : null}
      {open && history.error ? (
        <p className="notice notice-error" role="alert">
          The history could not be loaded: {errorMessage(history.error)}
        </p>
      ) : null}
      {open && history.data ? (
        <HistoryLines label="Who changed this donor" entries={history.data.data} />
      ) : null}
    </Section>
  );
}
