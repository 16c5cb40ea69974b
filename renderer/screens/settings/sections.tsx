/**
 * The Settings sections, in the order the side list shows them. Sync is app-admin's
 * (SyncSection.tsx): it plugs in here like the others; Event (hosting or joining an event of
 * several stations) lives in its own folder, screens/event/; Letters (the organisation, the
 * signer and the wording of receipts, thank-you letters and statements) in screens/letters/.
 */
import type { Role } from '#shared/schemas/roles.ts';
import type { ComponentType } from 'react';
import { ADMIN, COORDINATING, MONEY, OFFICE } from '../../session/role.ts';
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
import { PeopleSection } from './PeopleSection.tsx';
import { SyncSection } from './SyncSection.tsx';

export interface SettingsSection {
  id: string;
  label: string;
  component: ComponentType;
  /** Who is shown it (renderer/session/role.ts): the roles that may make its changes. */
  roles: readonly Role[];
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'campaigns', label: 'Campaigns', component: CampaignsSection, roles: ADMIN },
  { id: 'committees', label: 'Committees', component: CommitteesSection, roles: ADMIN },
  {
    id: 'donation-accounts',
    label: 'Donation accounts & limits',
    component: DonationAccountsSection,
    roles: ADMIN,
  },
  { id: 'elections', label: 'Elections', component: ElectionsSection, roles: ADMIN },
  { id: 'custom-fields', label: 'Custom fields', component: CustomFieldsSection, roles: ADMIN },
  { id: 'people', label: 'People', component: PeopleSection, roles: ADMIN },
  { id: 'api-keys', label: 'API keys', component: ApiKeysSection, roles: ADMIN },
  { id: 'import', label: 'Import CSV', component: ImportSection, roles: ADMIN },
  { id: 'export', label: 'Export CSV', component: ExportSection, roles: MONEY },
  { id: 'letters', label: 'Letters', component: LettersSettingsSection, roles: OFFICE },
  { id: 'event', label: 'Event', component: EventSection, roles: COORDINATING },
  { id: 'sync', label: 'Sync', component: SyncSection, roles: ADMIN },
];

/** The sections a role is shown (all until the role is known). */
export function sectionsFor(role: Role | null): readonly SettingsSection[] {
  return role === null ? SETTINGS_SECTIONS : SETTINGS_SECTIONS.filter((s) => s.roles.includes(role));
}

export function sectionFor(id: string | undefined, shown: readonly SettingsSection[] = SETTINGS_SECTIONS) {
  return shown.find((s) => s.id === id) ?? shown[0] ?? SETTINGS_SECTIONS[0]!;
}
