/**
 * The Dashboard's figures, as queries that refresh on their own every few seconds (a saved
 * gift refreshes them at once): today's gifts, the batches, the batch shown and the period's
 * statistics; and today's date, which changes at midnight.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { batchKey } from '../../router.ts';
import { localDate, periodQuery, type Period } from './dashboard-periods.ts';

/** How often the figures refresh on their own (a saved gift refreshes them at once). */
export const REFRESH_MS = 10_000;

/** Today's date, changing at midnight (so an evening that runs past it rolls over). */
function useToday(): string {
  const [today, setToday] = useState(() => localDate(new Date()));
  useEffect(() => {
    const t = setInterval(() => setToday(localDate(new Date())), 30_000);
    return () => clearInterval(t);
  }, []);
  return today;
}

export type DashboardData = ReturnType<typeof useDashboardData>;

/**
 * The queries behind the Dashboard for `period`, the batch shown (its id, null when there is
 * none) and chooseBatch (a batch picked on the Dashboard).
 */
export function useDashboardData(period: Period) {
  const api = useApi();
  const today = useToday();
  const [batchChoice, setBatchChoice] = useState<string | null>(null);

  const todayStats = useQuery({
    queryKey: [...qk.stats, 'today', today],
    queryFn: () => api.stats.donations(periodQuery('today')),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const batches = useQuery({
    queryKey: [...qk.batches, 'list', 'dashboard'],
    queryFn: () => api.batches.list({ limit: 100 }),
    refetchInterval: REFRESH_MS * 3,
  });
  const batchList = batches.data?.data ?? [];
  // The batch shown: the one chosen here, else the one open in Gift entry, else the newest open one.
  const entering = localStorage.getItem(batchKey(api.accountId));
  const batchId =
    batchChoice ??
    batchList.find((b) => b.id === entering)?.id ??
    batchList.find((b) => b.closedAt === null)?.id ??
    batchList[0]?.id ??
    null;
  const batch = useQuery({
    queryKey: qk.batch(batchId ?? ''),
    queryFn: () => api.batches.get(batchId!),
    enabled: batchId !== null,
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const periodStats = useQuery({
    queryKey: [...qk.stats, period, today],
    queryFn: () => api.stats.donations(periodQuery(period)),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  return { todayStats, batches, batchList, batchId, chooseBatch: setBatchChoice, batch, periodStats };
}
