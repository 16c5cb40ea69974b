/**
 * The write path for records that came down from HQ (a sync pull): contacts (contacts.ts) and
 * campaigns, committees and donation accounts (reference-records.ts). They are written like any
 * local record — same tables, same rules for derived columns — but their change-log rows say
 * `push = 0`: HQ already has them, so the sync engine never sends them back. The caller (the
 * sync engine's pull) runs these inside its own transaction, together with the id-map row that
 * links the local record to its HQ id, so a record is never left half-linked. An event hub's
 * feed comes down the same way at its stations (event-reference.ts, event-gifts.ts). The
 * folder's surface: the sync engine imports pulled records from here.
 */
export {
  insertPulledContact,
  type PulledContactFields,
  pulledContactFields,
  refreshPulledContact,
} from './contacts.ts';
export {
  type EventGift,
  type EventGiftResult,
  deleteEventContact,
  giftByReference,
  giftHasPendingChanges,
  hasGift,
  insertEventGift,
  sentToHqByHub,
  updateEventGift,
} from './event-gifts.ts';
export { dropEventGifts } from './event-drop.ts';
export { insertEventGifts } from './event-gifts-many.ts';
export { applyEventCustomValues } from './event-custom.ts';
export {
  applyEventContactDetail,
  type EventContactDetail,
  insertEventContacts,
  type NewEventContact,
} from './event-contact.ts';
export { applyEventElections, applyEventLetters } from './event-ledger.ts';
export { queuePulledDonorsOfOwnWork } from './event-handover.ts';
export { mergePulledContact } from './event-merge.ts';
export {
  type EventLimits,
  type EventReference,
  applyEventCampaigns,
  applyEventCommittees,
  applyEventCustomFields,
  applyEventDonationAccounts,
  applyEventReference,
} from './event-reference.ts';
export {
  getReference,
  insertPulledReference,
  linkCampaignDonationAccount,
  listReferences,
  type PulledLimits,
  referenceByName,
  type ReferenceKind,
  renamePulledReference,
} from './reference-records.ts';
