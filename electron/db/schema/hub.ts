/**
 * The event hub's tables and a station's notices (migration 2026-11-27T1600-event-hub), a
 * station's held gifts (2026-11-27T1700-hub-held-gifts) and the event's stations as a station
 * knows them (2026-11-27T2110-event-stations).
 */
import type { ColumnType } from 'kysely';

/** An account this GiftDesk hosts an event for. */
export interface HubSettingsTable {
  accountId: string;
  /** `sha256:` and the certificate's SHA-256 in hex pairs (the form stations pin). */
  fingerprint: string;
  /** The address the hub last served on (`https://H:PORT`). */
  url: string | null;
  /** When its server last started serving the event (2026-12-01T2330-hub-close-out). */
  servedAt: string | null;
  /** The address it was told to listen on (0.0.0.0: every network), to serve there again. */
  bindHost: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A paired station. */
export interface HubStationsTable {
  id: string;
  accountId: string;
  name: string;
  /** The station's own API key (api_keys.id): revoked with the station. */
  apiKeyId: string;
  createdAt: string;
  revokedAt: string | null;
  lastSeenAt: string | null;
  /** What the station last said of itself: gifts it entered, its last change's sequence, what waits. */
  reportedEntered: number | null;
  reportedLastSeq: number | null;
  reportedWaiting: number | null;
  reportedAt: string | null;
  /** The batch counts the station last reported (JSON of ReportedBatchCount[]). */
  reportedBatches: string | null;
  /**
   * 1 once the station confirmed it stored its key (or it reported); 0 from the hub's join
   * answer until then (2026-12-02T0420-reach-station-confirmed; stations paired before: 1).
   */
  confirmed: ColumnType<number, number | undefined, number>;
}

/** A one-time pairing code, hashed (SHA-256 of the normalised code). */
export interface HubPairingCodesTable {
  codeHash: string;
  accountId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  stationId: string | null;
}

/** At a hub: a wrong pairing code of the last minute and where it came from (2026-12-02T0410-reach-wrong-codes). */
export interface HubWrongCodesTable {
  /** The address the join came from. */
  address: string;
  at: string;
}

/** At a station: a change of this station's that a later one at the hub replaced. */
export interface HubNoticesTable {
  id: string;
  accountId: string;
  contactId: string;
  field: string;
  mine: string | null;
  theirs: string | null;
  createdAt: string;
  seenAt: string | null;
}

/** At a station: a gift of the hub's feed that waits for what it names to be here. */
export interface HubHeldGiftsTable {
  accountId: string;
  /** The gift's id at the hub. */
  hubId: string;
  /** Its donor's id at the hub. */
  contactHubId: string;
  /** The gift as the feed gave it (JSON). */
  body: string;
  /** What was not here when it came (e.g. "its donor"). */
  missing: string;
  heldAt: string;
}

/** At a station: a station of its event, as the hub's feed names it (this one too). */
export interface EventStationsTable {
  accountId: string;
  /** The station's id at the hub (`donations.station_id`). */
  id: string;
  name: string;
  updatedAt: string;
}

/** At a station: a gift its hub has sent to HQ, as the feed says (2026-12-02T0100-hub-sent-gifts). */
export interface HubSentGiftsTable {
  /** The gift's id here. */
  donationId: string;
  accountId: string;
}
