import { EmptyState, Screen } from '../ui/index.ts';

/** Placeholder: the Contacts screen is being built (issue 3). */
export function ContactsScreen() {
  return (
    <Screen title="Contacts">
      <EmptyState title="This screen is not built yet.">It arrives in a coming version of GiftDesk.</EmptyState>
    </Screen>
  );
}
