/**
 * The pages of the contact list that the rows in view need, fetched for these search and
 * order parameters, and the count, kept while pages far down load.
 */
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useApi } from '../../api/provider.tsx';
import { contactKeys, fetchSummaryPage, PAGE_SIZE, type ListParams } from './queries.ts';

/**
 * The rows fetched by page, the count, setRange (the first and last row index in view) and
 * retry (fetch the pages in view again).
 */
export function useSummaryPages(params: ListParams) {
  const api = useApi();
  // Rows in view → the pages they need (page 0 until the total is known).
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const pages = useMemo(() => {
    const out: number[] = [];
    for (let p = Math.floor(range[0] / PAGE_SIZE); p <= Math.floor(range[1] / PAGE_SIZE); p++) out.push(p);
    return out;
  }, [range]);
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: contactKeys.summaryPage(params, page),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchSummaryPage(api, params, page, signal),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    })),
  });
  const rowsByPage = new Map<number, ContactSummary[]>();
  let pagesTotal: number | null = null;
  let isStale = false;
  results.forEach((r, i) => {
    if (!r.data) return;
    pagesTotal ??= r.data.total ?? null; // the contact screen never sends total=false
    if (r.isPlaceholderData) isStale = true;
    else rowsByPage.set(pages[i]!, r.data.data);
  });
  // The count outlives the pages in view: a jump far down (End, a long scroll) asks for pages
  // never fetched, whose queries start empty (keepPreviousData only helps a query that had
  // data). Without this the count fell to "unknown" while they loaded, the list shrank to no
  // rows, its scroll went back to the top, and End landed on nothing.
  const [known, setKnown] = useState<{ params: ListParams; total: number } | null>(null);
  useEffect(() => {
    if (pagesTotal !== null && (known?.params !== params || known.total !== pagesTotal))
      setKnown({ params, total: pagesTotal });
  }, [pagesTotal, params, known]);
  const total: number | null = pagesTotal ?? (known?.params === params ? known.total : null);
  const error = results.find((r) => r.error)?.error ?? null;
  const retry = () => results.forEach((r) => void r.refetch());
  return { rowsByPage, isStale, total, error, setRange, retry };
}
