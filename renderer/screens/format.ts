/** Formatting for people, shared by the screens. */
import { dollarsToCents, formatCents } from '../../shared/money.ts';

/** Decimal dollars from the API → "$1,234.50". */
export const money = (dollars: number): string => formatCents(dollarsToCents(dollars) ?? 0);

/** "primary", 2026 → "Primary 2026". */
export const electionLabel = (type: string, year: number): string => `${type[0]?.toUpperCase() ?? ''}${type.slice(1)} ${year}`;
