/**
 * Shapes of the event hub's routes (GiftDesk extensions under /api/v1/hub) and of a
 * station's event routes (/api/v1/event). One hub per event; stations pair with a one-time
 * code and pin the hub certificate's fingerprint.
 *
 * At the hub, for stations (HTTPS on the hub's address):
 * - POST /hub/join — no key; the pairing code is the credential. Answers the station's key.
 * - GET  /hub/changes?after=CURSOR&wait=SECONDS — the station's key. What changed at the hub
 *   after the cursor (contacts, gifts, reference data), oldest first; with `wait`, held open
 *   until something changes (at most `wait` seconds).
 * - GET  /hub/donors/{id} — the station's key. One donor with every gift of it, in the feed's
 *   shapes, cursor untouched (a station gets back a donor whose deletion the hub refused).
 * - POST /hub/report — the station's key. What the station says of itself (close-out).
 * At the hub, for the person hosting (any key of the account):
 * - GET /hub, POST /hub/codes, GET /hub/stations, POST /hub/stations/:id/revoke,
 *   GET /hub/close-out.
 * At a station, for its own app and scripts: GET /event, POST /event/join, GET /event/notices,
 * POST /event/notices/{id}/seen and /event/notices/seen-all.
 */
import { z } from 'zod';
import { Contact, CustomFieldValues } from './contacts.ts';
import { ELECTION_TYPES } from '../enums.ts';
import { Campaign, Committee, CustomFieldDefinition, DonationAccount } from './extensions.ts';
import { LETTER_KINDS, ORG_KINDS } from './letters.ts';
import { accountIdField, requiredText, typeError } from './common.ts';
import { HubDonation } from './hub-gifts.ts';

export { HubDonation, HubDonationFlag, HubDonationHistory } from './hub-gifts.ts';

/** `sha256:` and 64 hex digits, optionally in colon-separated pairs (case ignored). */
export const FINGERPRINT_PATTERN = /^sha256:(?:[0-9a-f]{2}(?::?)){31}[0-9a-f]{2}$/i;
export const fingerprintField = z
  .string({ error: typeError('must be a string') })
  .trim()
  .regex(FINGERPRINT_PATTERN, { error: 'must be sha256: followed by the certificate’s 64 hex digits' });

/** A pairing code: 8 letters and digits, shown as XXXX-XXXX (dashes and case ignored). */
export const pairingCodeField = z
  .string({ error: typeError('must be a string') })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(32, { error: 'must be at most 32 characters' });

/**
 * A station the hub removed pairs again as the same station: its id at the hub and the key it
 * had there (id and secret), which prove it is that station. The hub reuses its row, clears the
 * removal and gives it a new key.
 */
export const HubRejoin = z.object({
  stationId: z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1)
    .max(64),
  keyId: z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1)
    .max(64),
  secret: z
    .string({ error: typeError('must be a string') })
    .min(1)
    .max(200),
});

export const HubJoinBody = z.object({
  code: pairingCodeField,
  name: requiredText(80),
  rejoin: HubRejoin.optional(),
});

/** A station confirming it stored the key its join gave it (sent with that key; nothing else). */
export const HubJoinConfirmBody = z.object({
  /** The station the join answer named (the key's own station). */
  stationId: z
    .string({ error: typeError('must be a string') })
    .min(1)
    .max(64),
});
export const HubJoinConfirmed = z
  .object({ stationId: z.string(), confirmed: z.literal(true) })
  .meta({ id: 'HubJoinConfirmed' });

export const HubStation = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    lastSeenAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    /** Gifts from this station the hub holds. */
    received: z.number().int(),
    /** What the station last said it still has waiting (null: it has not said). */
    waiting: z.number().int().nullable(),
    /** What the station last said it entered, and its last change's sequence. */
    reportedEntered: z.number().int().nullable(),
    reportedLastSeq: z.number().int().nullable(),
    reportedAt: z.string().nullable(),
  })
  .meta({ id: 'HubStation' });

export const HubJoined = z
  .object({
    accountId: z.string(),
    accountName: z.string(),
    station: z.object({ id: z.string(), name: z.string() }),
    /** The station's own API key at the hub (the secret is shown once, here). */
    keyId: z.string(),
    secret: z.string(),
    fingerprint: z.string(),
    /**
     * A new station confirms by then that it stored its key (POST /hub/join/confirm with it), or
     * the hub ends it. Absent: nothing to confirm (a station taken back, or a hub of an earlier version).
     */
    confirmBy: z.string().optional(),
    /**
     * Whether the hub's own HQ takes thank-you marks: false for an HQ of the donor API alone
     * (marks stay at the hub), null when the hub does not know (no HQ, or not asked yet).
     * Absent from a hub of an earlier version.
     */
    hqTakesThankYouMarks: z.boolean().nullable().optional(),
    /**
     * How many donors and gifts the hub holds as the station joins: what the station brings
     * next (its progress bar's whole). Absent from a hub of an earlier version.
     */
    holds: z.object({ donors: z.number().int(), gifts: z.number().int() }).optional(),
  })
  .meta({ id: 'HubJoined' });

export const HubInfo = z
  .object({
    accountId: z.string(),
    url: z.string().nullable(),
    fingerprint: z.string(),
    /** A link carrying the address, a fresh code and the fingerprint (what the QR code holds). */
    joinLink: z.string().nullable(),
    /**
     * The addresses a station may use, `url` first: a hub listening on every network (0.0.0.0)
     * answers on each of the machine's networks, and the coordinator picks the stations' one.
     */
    addresses: z.array(z.string()),
    /** This server serves the hub's HTTPS address now. */
    hosting: z.boolean(),
    /** The address the hub was told to listen on (0.0.0.0: every network), to serve there again. */
    bindHost: z.string().nullable(),
    /** The fresh code the link carries (hosting just started), and when it expires. */
    pairingCode: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'HubInfo' });

export const HubCode = z
  .object({
    code: z.string(),
    expiresAt: z.string(),
    url: z.string().nullable(),
    fingerprint: z.string(),
    joinLink: z.string().nullable(),
  })
  .meta({ id: 'HubCode' });

export const HubAccountQuery = z.object({ accountId: accountIdField });
export const HubAccountBody = z.object({ accountId: accountIdField });

/** A fresh pairing code; `only`: every older code not used yet is retired with it. */
export const HubCodeBody = z.object({
  accountId: accountIdField,
  only: z.boolean({ error: typeError('must be true or false') }).optional(),
});

/** Host this event from the running app: a second listener, HTTPS with the hub's certificate. */
export const HubHostBody = z.object({
  accountId: accountIdField,
  /** The address to bind (default 0.0.0.0: every network of this machine). */
  host: z
    .string({ error: typeError('must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .regex(/^[A-Za-z0-9.:-]+$/, {
      error: 'must be an address of this machine (an IP address or a host name)',
    })
    .optional(),
  /** The port (default 4871; 0: any free port). */
  port: z.number().int().min(0).max(65535).optional(),
});

export const HubStationList = z.object({ stations: z.array(HubStation) }).meta({ id: 'HubStationList' });

export const HubStationParams = z.object({ id: z.string().trim().min(1).max(64) });

/** GET /hub/donors/{id}: the hub's id of the donor. */
export const HubDonorParams = z.object({ id: z.string().trim().min(1).max(64) });

export const HubRevoked = z.object({ id: z.string(), revoked: z.literal(true), revokedAt: z.string() });

export const HubReported = z.object({
  stationId: z.string(),
  received: z.number().int(),
  reportedAt: z.string(),
  /**
   * Whether the hub's own HQ takes thank-you marks: false for an HQ of the donor API alone
   * (marks stay at the hub), null when the hub does not know (no HQ, or not asked yet).
   * Absent from a hub of an earlier version.
   */
  hqTakesThankYouMarks: z.boolean().nullable().optional(),
});

/** A contact as the feed carries it: the read shape with its custom fields. */
export const HubContact = Contact.extend({ customFields: CustomFieldValues.optional() });

/** The account's election calendar and its default election, as the feed carries them whole. */
export const LedgerElections = z.object({
  elections: z.array(
    z.object({
      id: z.string(),
      electionType: z.enum(ELECTION_TYPES),
      electionYear: z.number().int(),
      electionDate: z.string(),
      createdAt: z.string(),
    }),
  ),
  defaultElection: z
    .object({ electionType: z.enum(ELECTION_TYPES), electionYear: z.number().int() })
    .nullable(),
});

/** What the account's letters say (null: never edited, the defaults) and its own templates. */
export const LedgerLetters = z.object({
  settings: z
    .object({
      orgKind: z.enum(ORG_KINDS),
      organizationName: z.string().nullable(),
      organizationAddress: z.string().nullable(),
      signerName: z.string().nullable(),
      signerTitle: z.string().nullable(),
      updatedAt: z.string(),
    })
    .nullable(),
  templates: z.array(
    z.object({ kind: z.enum(LETTER_KINDS), heading: z.string(), body: z.string(), updatedAt: z.string() }),
  ),
});

/** A campaign as the feed carries it: the donation accounts it offers (no totals: each end counts its own). */
export const LedgerCampaign = z.object({
  id: z.string(),
  name: z.string(),
  donationAccounts: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
});

/**
 * The snapshot kinds of the event's ledger: each list whole, present only when it changed since
 * the cursor (its fingerprint, which the cursor carries, differs) or on the first read.
 */
export const HubSnapshots = z.object({
  elections: LedgerElections.optional(),
  letters: LedgerLetters.optional(),
  donationAccounts: z.array(DonationAccount).optional(),
  committees: z.array(Committee).optional(),
  campaigns: z.array(LedgerCampaign).optional(),
  customFields: z.array(CustomFieldDefinition).optional(),
  stations: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});

export const HubChangesQuery = z.object({
  after: z.string().max(200).optional(),
  wait: z.coerce.number().int().min(0).max(30).optional(),
  /** At most 2000 (a hub of an earlier version: 500). */
  limit: z.coerce.number().int().min(1).max(2000).optional(),
});

export const HubChanges = z
  .object({
    contacts: z.array(HubContact),
    /** Contacts deleted at the hub (ids). */
    deletedContacts: z.array(z.string()),
    donations: z.array(HubDonation),
    /** The snapshot kinds that changed since the cursor (absent from a hub of an earlier version). */
    snapshots: HubSnapshots.optional(),
    /**
     * For a station of an earlier version: the four reference lists whole when one of them is in
     * `snapshots` (campaign totals are not carried: 0). A station that reads `snapshots` ignores it.
     */
    reference: z
      .object({
        campaigns: z.array(Campaign),
        committees: z.array(Committee),
        donationAccounts: z.array(DonationAccount),
        customFields: z.array(CustomFieldDefinition),
      })
      .nullable(),
    /**
     * Every station of the event (removed ones too: their gifts stay), so a station names the
     * others on its board. Absent from a hub that does not say.
     */
    stations: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
    cursor: z.string(),
    /** More changes wait after this page: ask again at once. */
    more: z.boolean(),
  })
  .meta({ id: 'HubChanges' });

export * from './hub-close-out.ts';
export * from './hub-join-progress.ts';
export * from './hub-notices.ts';

export const EventJoinBody = z.object({
  /** The key's own account (optional: the join makes the event's account here, the hub's). */
  accountId: accountIdField.optional(),
  /** The hub's address (`https://H:PORT`), or the join link of its QR code carrying all three. */
  url: requiredText(500),
  code: pairingCodeField.optional(),
  fingerprint: fingerprintField.optional(),
  name: requiredText(80),
  /**
   * This GiftDesk is a station of a hub that was lost: move it to the hub at `url` and send that
   * hub everything typed here again (it keeps each once, by this station's references).
   */
  replace: z.boolean({ error: typeError('must be true or false') }).optional(),
});

/** A station's view of its event. */
export const EventStatus = z
  .object({
    role: z.enum(['none', 'hub', 'station']),
    accountId: z.string().nullable(),
    hubUrl: z.string().nullable(),
    fingerprint: z.string().nullable(),
    station: z.object({ id: z.string(), name: z.string() }).nullable(),
    /** The hub answered lately. */
    reachable: z.boolean().nullable(),
    lastContactAt: z.string().nullable(),
    /** Changes the hub has not confirmed. */
    waiting: z.number().int(),
    revokedAt: z.string().nullable(),
    notices: z.number().int(),
    /** At the hub: this GiftDesk serves the event now (false: the stations cannot reach it). */
    serving: z.boolean().nullable().optional(),
  })
  .meta({ id: 'EventStatus' });

/**
 * POST /event/join's answer: the station's view of its event, and, when the caller was the
 * app's own session (its window), a session key for the event's account, which the app takes
 * from then on (the event's account is the hub's, not the one the window had).
 */
export const EventJoined = z
  .object({
    event: EventStatus,
    session: z.object({ accountId: z.string(), keyId: z.string(), secret: z.string() }).nullable(),
    /** With `replace`: the lost hub, and what goes to the new one again. */
    replaced: z
      .object({
        previousHubUrl: z.string(),
        /** Changes typed here, sent to the new hub again. */
        resent: z.number().int(),
        /** Donors typed at other stations that gifts typed here need, sent with them. */
        donors: z.number().int(),
      })
      .nullable()
      .optional(),
  })
  .meta({ id: 'EventJoined' });

export type HubJoinBody = z.infer<typeof HubJoinBody>;
export type HubStation = z.infer<typeof HubStation>;
export type HubJoined = z.infer<typeof HubJoined>;
export type HubJoinConfirmed = z.infer<typeof HubJoinConfirmed>;
export type HubInfo = z.infer<typeof HubInfo>;
export type HubCode = z.infer<typeof HubCode>;
export type HubCodeBody = z.infer<typeof HubCodeBody>;
export type HubHostBody = z.infer<typeof HubHostBody>;
export type HubStationList = z.infer<typeof HubStationList>;
export type HubContact = z.infer<typeof HubContact>;
export type HubChanges = z.infer<typeof HubChanges>;
export type HubSnapshots = z.infer<typeof HubSnapshots>;
export type LedgerElections = z.infer<typeof LedgerElections>;
export type LedgerLetters = z.infer<typeof LedgerLetters>;
export type LedgerCampaign = z.infer<typeof LedgerCampaign>;
export type HubRejoin = z.infer<typeof HubRejoin>;
