import { EmptyState, Screen } from '../ui/index.ts';

/** Placeholder: the Gift entry screen is being built (issue 3). */
export function GiftEntryScreen() {
  return (
    <Screen title="Gift entry">
      <EmptyState title="This screen is not built yet.">It arrives in a coming version of GiftDesk.</EmptyState>
    </Screen>
  );
}
