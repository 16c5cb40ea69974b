/**
 * The place for sync settings (HQ address, key, rate, status): app-admin's section. Until
 * it lands here this says plainly that sync is not set up from this screen yet.
 */
import { EmptyState } from '../../ui/index.ts';
import { SectionHeader } from './SectionHeader.tsx';

export function SyncSection() {
  return (
    <section aria-labelledby="settings-sync">
      <SectionHeader id="settings-sync" title="Sync">
        Where this laptop sends its gifts and contacts when a network is there.
      </SectionHeader>
      <EmptyState title="Sync is not set up from this screen yet.">
        Nothing is sent anywhere until it is.
      </EmptyState>
    </section>
  );
}
