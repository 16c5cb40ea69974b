/**
 * A list as its query stands: why it could not be loaded, "Loading …", the empty state when
 * there is nothing (with the way to fill it), else the list itself.
 */
import type { ReactNode } from 'react';

export function Loaded({
  query,
  noun,
  loading = `Loading ${noun}…`,
  isEmpty = false,
  empty = null,
  children,
}: {
  query: { isError: boolean; isPending: boolean; error: Error | null };
  /** What is loaded, as "The … could not be loaded". */
  noun: string;
  loading?: string;
  isEmpty?: boolean;
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (query.isError)
    return (
      <p className="notice notice-error" role="alert">
        The {noun} could not be loaded: {query.error?.message}
      </p>
    );
  if (query.isPending) return <p className="muted">{loading}</p>;
  return <>{isEmpty ? empty : children}</>;
}
