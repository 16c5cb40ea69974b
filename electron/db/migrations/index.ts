import type { NamedMigration } from '../migration-types.ts';
import * as initial from './2026-11-22T0900-initial.ts';
import * as importProgress from './2026-11-22T1000-import-progress.ts';
import * as counterSlots from './2026-11-22T1100-counter-slots.ts';
import * as sync from './2026-11-24T1600-sync.ts';
import * as enteredIndex from './2026-11-24T1730-donations-entered-index.ts';
import * as batches from './2026-11-24T1740-batches.ts';
import * as contactBrowseIndexes from './2026-11-24T1750-contact-browse-indexes.ts';
import * as syncPull from './2026-11-24T1800-sync-pull.ts';
import * as searchAccountToken from './2026-11-24T1900-search-account-token.ts';
import * as syncHqContact from './2026-11-25T1300-sync-hq-contact.ts';
import * as apiKeySessions from './2026-11-25T1510-api-key-sessions.ts';
import * as searchRelevance from './2026-11-25T1520-search-relevance.ts';
import * as searchTerms from './2026-11-25T1530-search-terms.ts';
import * as syncDirectory from './2026-11-25T1540-sync-directory.ts';
import * as donationsListIndex from './2026-11-25T1720-donations-list-index.ts';
import * as searchTermsCompact from './2026-11-25T1725-search-terms-compact.ts';
import * as searchPrefixOne from './2026-11-25T1935-search-prefix-one.ts';
import * as syncReferenceUnique from './2026-11-25T1940-sync-reference-unique.ts';
import * as donorTotalDeltas from './2026-11-25T2300-donor-total-deltas.ts';
import * as searchFoldLetters from './2026-11-25T2310-search-fold-letters.ts';
import * as eventHub from './2026-11-27T1600-event-hub.ts';
import * as batchCount from './2026-11-27T1700-batch-count.ts';
import * as hubHeldGifts from './2026-11-27T1700-hub-held-gifts.ts';
import * as letters from './2026-11-27T2000-letters.ts';
import * as thankYouMarks from './2026-11-27T2100-thank-you-marks.ts';
import * as eventStations from './2026-11-27T2110-event-stations.ts';
import * as syncResent from './2026-12-02T0200-sync-resent.ts';
import * as letterRunOwner from './2026-11-27T2120-letter-run-owner.ts';
import * as hubCloseOut from './2026-12-01T2330-hub-close-out.ts';
import * as hubSentGifts from './2026-12-02T0100-hub-sent-gifts.ts';
import * as ownContactCreates from './2026-12-02T0210-own-contact-creates.ts';
import * as rolesKeyRole from './2026-12-02T0320-roles-key-role.ts';
import * as peopleUsers from './2026-12-02T0400-people-users.ts';
import * as reachWrongCodes from './2026-12-02T0410-reach-wrong-codes.ts';
import * as reachStationConfirmed from './2026-12-02T0420-reach-station-confirmed.ts';
import * as peoplescreenLastSignIn from './2026-12-02T0750-peoplescreen-last-sign-in.ts';
import * as entryrowBatchHost from './2026-12-02T0800-entryrow-batch-host.ts';
import * as specwordsMarksChecked from './2026-12-02T0800-specwords-marks-checked.ts';
import * as historyWho from './2026-12-02T0810-history-who.ts';
import * as pgstateSharedState from './2026-12-02T0820-pgstate-shared-state.ts';
import * as histTrailSent from './2026-12-02T0830-hist-trail-sent.ts';
import * as letterRunParts from './2026-12-03T0700-letter-run-parts.ts';
import * as letterRunDonors from './2026-12-03T1330-letter-run-donors.ts';
import * as retiredContactReferences from './2026-12-03T2300-retired-contact-references.ts';
import * as batchEntryKey from './2026-12-05T1230-batch-entry-key.ts';
import * as importFileHash from './2026-12-05T1240-import-file-hash.ts';
import * as letterRunEntryKey from './2026-12-05T1250-letter-run-entry-key.ts';
import * as contactCreationReach from './2026-12-06T1700-contact-creation-reach.ts';

/** Every migration, oldest first. A new one is dated after the newest (a test checks). */
export const MIGRATIONS: readonly NamedMigration[] = [
  initial,
  importProgress,
  counterSlots,
  sync,
  enteredIndex,
  batches,
  contactBrowseIndexes,
  syncPull,
  searchAccountToken,
  syncHqContact,
  apiKeySessions,
  searchRelevance,
  searchTerms,
  syncDirectory,
  donationsListIndex,
  searchTermsCompact,
  searchPrefixOne,
  syncReferenceUnique,
  donorTotalDeltas,
  searchFoldLetters,
  eventHub,
  batchCount,
  hubHeldGifts,
  letters,
  thankYouMarks,
  eventStations,
  letterRunOwner,
  hubCloseOut,
  hubSentGifts,
  syncResent,
  ownContactCreates,
  rolesKeyRole,
  peopleUsers,
  reachWrongCodes,
  reachStationConfirmed,
  peoplescreenLastSignIn,
  entryrowBatchHost,
  specwordsMarksChecked,
  historyWho,
  pgstateSharedState,
  histTrailSent,
  letterRunParts,
  letterRunDonors,
  retiredContactReferences,
  batchEntryKey,
  importFileHash,
  letterRunEntryKey,
  contactCreationReach,
];
