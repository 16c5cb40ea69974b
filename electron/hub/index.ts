/**
 * The event hub: a GiftDesk that the stations of one event pair with and push to, serving
 * HTTPS on the venue's network with a certificate of its own. Its certificate (certificate.ts)
 * and address (addresses.ts); pairing codes and the join that trades one for a station's key
 * (pairing.ts), with the wrong-code limit (wrong-codes.ts); the stations, their reports and
 * revocation (stations.ts); the change feed stations read (feed.ts) and its long poll
 * (feed-waiters.ts); the close-out (close-out.ts); what the hub keeps per account
 * (settings.ts) and in memory while it runs (services.ts).
 *
 * This file is the folder's surface: the server and the CLI import the hub from here and
 * nowhere else in the folder (eslint.config.js). The hub uses the domain through its surfaces
 * and knows nothing of HTTP.
 */
export { hubAddresses, hubUrl, machineIpv4Addresses, shownHost } from './addresses.ts';
export {
  HUB_CERT_FILE,
  HUB_KEY_FILE,
  type HubCertificate,
  ensureHubCertificate,
  fingerprintOf,
} from './certificate.ts';
export { AT_THE_HUB, closeOut } from './close-out.ts';
export { FEED_PAGE, emptyPage as emptyFeedPage, parseCursor, readChanges, readDonor } from './feed.ts';
export {
  type LedgerKindName,
  type LoggedName,
  type SnapshotName,
  LEDGER_KIND_NAMES,
  ledgerKinds,
  skippedKinds,
} from './ledger-kinds.ts';
export { ENGINE_TABLES, LEDGER_TABLES, type TableClass, engineTableReason } from './ledger-tables.ts';
export { type FeedWaiters } from './feed-waiters.ts';
export {
  type CodeRefusal,
  type Joined,
  PAIRING_CODE_TTL_MS,
  codeRefused,
  createPairingCode,
  joinStation,
  pairingCodeHash,
} from './pairing.ts';
export {
  FEED_GATHER_MS,
  type FeedPace,
  type HubHosting,
  type HubServices,
  type KeyStation,
  createHubServices,
} from './services.ts';
export {
  type HubSettings,
  chooseHubAccount,
  forgetServing,
  getHubSettings,
  hostedEvents,
  requireHubSettings,
  saveHubSettings,
} from './settings.ts';
export {
  STATION_CONFIRM_MS,
  confirmStation,
  hasStations,
  listStations,
  recordReport,
  reportedBatchesOf,
  revokeStation,
} from './stations.ts';
export {
  type CodeWait,
  type WrongCodeLimit,
  WRONG_CODES_AT_THE_HUB,
  WRONG_CODES_PER_ADDRESS,
  createWrongCodeLimit,
} from './wrong-codes.ts';
export { eventHolds } from './holds.ts';
