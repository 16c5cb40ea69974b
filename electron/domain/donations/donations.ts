/**
 * Donations: create (D1–D7), list (newest first, date range), the full record for the app, and
 * corrections before the first send. Each concern is its own module; this one gathers what the
 * routes, the sync engine, the tests and the benches import.
 *
 * - donation-rules.ts: the rules every donation passes, its stored row, its donor's totals
 * - donation-create.ts: create, once per sync reference
 * - donation-list.ts: the list and its count
 * - donation-read.ts: the full record, one or a batch's
 * - donation-corrections.ts: correct and void before the first send (read-only after)
 */
export {
  type DonationCorrection,
  correctDonation,
  donationSendState,
  voidDonation,
} from './donation-corrections.ts';
export {
  type DonationWriteOptions,
  createDonation,
  createDonationOnce,
  insertDonation,
  toCreated,
} from './donation-create.ts';
export { donationPageQuery, listDonations } from './donation-list.ts';
export { getDonation, listBatchDonations } from './donation-read.ts';
export {
  type CheckedDonation,
  DONATION_REFERENCES,
  addToDonorTotals,
  checkDonation,
  donationRow,
  referenceNotFound,
  requireDesignation,
} from './donation-rules.ts';
