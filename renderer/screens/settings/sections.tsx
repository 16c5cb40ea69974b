/**
 * The Settings sections, in the order the side list shows them. Sync is app-admin's
 * (SyncSection.tsx): it plugs in here like the others; Event (hosting or joining an event of
 * several stations) lives in its own folder, screens/event/; Letters (the organisation, the
 * signer and the wording of receipts, thank-you letters and statements) in screens/letters/.
 */
import type { ComponentType } from 'react';
import { EventSection } from '../event/EventSection.tsx';
import { LettersSettingsSection } from '../letters/LettersSettingsSection.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { CampaignsSection } from './CampaignsSection.tsx';
import { CommitteesSection } from './CommitteesSection.tsx';
import { CustomFieldsSection } from './CustomFieldsSection.tsx';
import { DonationAccountsSection } from './DonationAccountsSection.tsx';
import { ElectionsSection } from './ElectionsSection.tsx';
import { ExportSection } from './ExportSection.tsx';
import { ImportSection } from './ImportSection.tsx';
import { SyncSection } from './SyncSection.tsx';

export interface SettingsSection {
  id: string;
  label: string;
  component: ComponentType;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'campaigns', label: 'Campaigns', component: CampaignsSection },
  { id: 'committees', label: 'Committees', component: CommitteesSection },
  { id: 'donation-accounts', label: 'Donation accounts & limits', component: DonationAccountsSection },
  { id: 'elections', label: 'Elections', component: ElectionsSection },
  { id: 'custom-fields', label: 'Custom fields', component: CustomFieldsSection },
  { id: 'api-keys', label: 'API keys', component: ApiKeysSection },
  { id: 'import', label: 'Import CSV', component: ImportSection },
  { id: 'export', label: 'Export CSV', component: ExportSection },
  { id: 'letters', label: 'Letters', component: LettersSettingsSection },
  { id: 'event', label: 'Event', component: EventSection },
  { id: 'sync', label: 'Sync', component: SyncSection },
];

export function sectionFor(id: string | undefined): SettingsSection {
  return SETTINGS_SECTIONS.find((s) => s.id === id) ?? SETTINGS_SECTIONS[0]!;
}
