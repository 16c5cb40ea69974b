/**
 * The batch panel's way to the deposit summary: "Balance and close…" while the batch is open;
 * once closed, what its count found (who counted, the difference), read only then — a closed
 * batch takes no gifts, so this costs gift entry no request per gift.
 */
import { useQuery } from '@tanstack/react-query';
import { wireCents } from '#shared/money.ts';
import type { Batch } from '#shared/schemas/batches.ts';
import { useApi } from '../../../api/provider.tsx';
import { qk } from '../../../api/query-keys.ts';
import { navigate } from '../../../router.ts';
import { MONEY, roleSees, useRole } from '../../../session/role.ts';
import { Button } from '../../../ui/index.ts';
import { differenceWords } from './balance.ts';

function ClosedCount({ batch }: { batch: Batch }) {
  const api = useApi();
  const deposit = useQuery({
    queryKey: qk.batchDeposit(batch.id),
    queryFn: () => api.batches.deposit(batch.id),
  });
  const count = deposit.data?.lastCount;
  if (!deposit.data) return null;
  const off = count ? wireCents(count.difference) : 0;
  return (
    <p
      className={`notice ${count && off !== 0 ? 'notice-warn' : count ? 'notice-ok' : ''} batch-count-line`}
      data-testid="batch-count-line"
    >
      {count
        ? `Closed with a count by ${count.countedBy}: ${off === 0 ? 'it balanced' : `difference ${differenceWords(off)}`}.`
        : 'Closed without a count.'}
    </p>
  );
}

export function BatchBalance({ batch }: { batch: Batch }) {
  const role = useRole();
  const open = () => navigate('gifts', 'deposit', batch.id);
  // Counting and the deposit are a treasurer's (or an administrator's).
  if (!roleSees(role, MONEY)) return null;
  return batch.closedAt === null ? (
    <Button onClick={open}>Balance and close…</Button>
  ) : (
    <>
      <Button onClick={open}>Deposit summary</Button>
      <ClosedCount batch={batch} />
    </>
  );
}
