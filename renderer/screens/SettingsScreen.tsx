import { EmptyState, Screen } from '../ui/index.ts';

/** Placeholder: the Settings screen is being built (issue 3). */
export function SettingsScreen() {
  return (
    <Screen title="Settings">
      <EmptyState title="This screen is not built yet.">It arrives in a coming version of GiftDesk.</EmptyState>
    </Screen>
  );
}
