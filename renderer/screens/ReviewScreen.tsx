import { EmptyState, Screen } from '../ui/index.ts';

/** Placeholder: the Review screen is being built (issue 3). */
export function ReviewScreen() {
  return (
    <Screen title="Review">
      <EmptyState title="This screen is not built yet.">It arrives in a coming version of GiftDesk.</EmptyState>
    </Screen>
  );
}
