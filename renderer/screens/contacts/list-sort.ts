/** The contact list's orders: the choices offered, each column's first order, and the header arrow. */
import type { ContactSummarySortField } from '#shared/schemas/contact-views.ts';

export const BEST_MATCH = { value: 'relevance:desc', label: 'Best match' } as const;
export const SORTS = [
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'name:desc', label: 'Name, Z to A' },
  { value: 'lastDonationDate:desc', label: 'Last gift, newest first' },
  { value: 'lastDonationDate:asc', label: 'Last gift, oldest first' },
  { value: 'totalDonations:desc', label: 'Total given, highest first' },
  { value: 'totalDonations:asc', label: 'Total given, lowest first' },
  { value: 'createdAt:desc', label: 'Added, newest first' },
  { value: 'createdAt:asc', label: 'Added, oldest first' },
] as const;
export const DEFAULT_ORDER: Record<ContactSummarySortField, 'asc' | 'desc'> = {
  name: 'asc',
  lastDonationDate: 'desc',
  totalDonations: 'desc',
  createdAt: 'desc',
  relevance: 'desc',
};

export interface Sort {
  by: ContactSummarySortField;
  order: 'asc' | 'desc';
}
export const RELEVANCE: Sort = { by: 'relevance', order: 'desc' };
export const BY_NAME: Sort = { by: 'name', order: 'asc' };

export function sortArrow(on: boolean, order: 'asc' | 'desc'): string {
  return on ? (order === 'asc' ? ' ▲' : ' ▼') : '';
}
