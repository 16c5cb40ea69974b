import { EmptyState, Screen } from '../ui/index.ts';

/** Placeholder: the Dashboard screen is being built (issue 3). */
export function DashboardScreen() {
  return (
    <Screen title="Dashboard">
      <EmptyState title="This screen is not built yet.">It arrives in a coming version of GiftDesk.</EmptyState>
    </Screen>
  );
}
