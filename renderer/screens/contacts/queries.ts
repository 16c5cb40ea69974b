/**
 * The contact screen's server state: the shared contact routes through `api.contacts`, the
 * screen's extension routes (summaries, giving history, delete preview) through the same
 * typed client, each answer parsed with its shared schema. Keys live under qk.contacts, so
 * a saved gift (invalidateAfterGift) refreshes totals here too.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CustomFieldDefinition } from '#shared/schemas/extensions.ts';
import {
  ContactDeletePreview,
  ContactDonationList,
  ContactSummaryList,
  type ContactSummarySortField,
} from '#shared/schemas/contact-views.ts';
import type { Api } from '../../api/endpoints.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';

/**
 * Rows per request: a screenful and the virtual list's overscan with room to spare (about 21
 * rows on a 900-pixel window, 31 on a 1440-pixel one), so a search's first answer fills the
 * screen. Half the API's largest page: the server reads half as far and the page parses and
 * renders in half the time (bench/renderer.ts); scrolling fetches the next page as before.
 */
export const PAGE_SIZE = 50;

export interface ListParams {
  search: string;
  sortBy: ContactSummarySortField;
  sortOrder: 'asc' | 'desc';
}

export const contactKeys = {
  summaries: (p: ListParams) => [...qk.contacts, 'summaries', p] as const,
  summaryPage: (p: ListParams, page: number) => [...qk.contacts, 'summaries', p, page] as const,
  giving: (id: string, page: number) => [...qk.contacts, 'giving', id, page] as const,
  deletePreview: (id: string) => [...qk.contacts, 'delete-preview', id] as const,
};

export function fetchSummaryPage(api: Api, p: ListParams, page: number, signal?: AbortSignal) {
  return api.raw.request('GET', '/contact-summaries', {
    schema: ContactSummaryList,
    query: {
      search: p.search.trim() || undefined,
      sortBy: p.sortBy,
      sortOrder: p.sortOrder,
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    },
    signal,
  });
}

export function useContact(id: string) {
  const api = useApi();
  return useQuery({ queryKey: qk.contact(id), queryFn: () => api.contacts.get(id) });
}

export function useCustomFields() {
  const api = useApi();
  return useQuery({
    queryKey: qk.customFields,
    queryFn: () =>
      api.raw
        .request('GET', '/custom-fields', { schema: z.object({ data: z.array(CustomFieldDefinition) }) })
        .then((r) => r.data),
  });
}

export const GIVING_PAGE_SIZE = 20;

export function useGiving(id: string, page: number) {
  const api = useApi();
  return useQuery({
    queryKey: contactKeys.giving(id, page),
    queryFn: ({ signal }) =>
      api.raw.request('GET', `/contacts/${encodeURIComponent(id)}/donations`, {
        schema: ContactDonationList,
        query: { limit: GIVING_PAGE_SIZE, offset: page * GIVING_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function fetchDeletePreview(api: Api, id: string) {
  return api.raw.request('GET', `/contacts/${encodeURIComponent(id)}/delete-preview`, {
    schema: ContactDeletePreview,
  });
}
