/**
 * Donations: create (D1–D7), list (newest first, date range), the full record for the app, and
 * corrections before the first send. Each concern is its own module; this one gathers what the
 * routes, the sync engine, the tests and the benches import.
 *
 * - rules.ts: the rules every donation passes, its stored row, its donor's totals
 * - create.ts: create, once per sync reference
 * - list.ts: the list and its count
 * - read.ts: the full record, one or a batch's
 * - corrections.ts: correct and void before the first send (read-only after)
 * - batches.ts: batches (a table's or a night's gifts, counted against what was expected)
 * - deposit.ts: the deposit figures of a scope of gifts (by method, cash, the checks), reusable
 * - batch-count.ts: a batch's deposit summary, and closing it with the count and its difference
 * - gift-checks.ts: the read-only checks of a gift being typed
 * - cash-review.ts: cash gifts over the cash limit, for Review
 * - stats.ts: the dashboard's totals and gifts over time
 * - raised-by.ts: what each host raised, and a contact's soft credits
 * - owners.ts: whose a gift or a batch is (a volunteer's own)
 * - thank-you.ts, thank-you-marks.ts: gifts marked thanked here, and marks taken from another GiftDesk
 *
 * This file is the folder's surface: the server, the CLI and the shell import donations from
 * here and nowhere else in the folder (eslint.config.js).
 */
export {
  type ChangeAsker,
  type DonationCorrection,
  SENT_TO_HQ,
  type Upstream,
  correctDonation,
  donationSendState,
  voidDonation,
} from './corrections.ts';
export {
  type DonationWriteOptions,
  createDonation,
  createDonationOnce,
  insertDonation,
  toCreated,
} from './create.ts';
export { donationPageQuery, listDonations } from './list.ts';
export { getDonation, listBatchDonations } from './read.ts';
export {
  type CheckedDonation,
  DONATION_REFERENCES,
  addToDonorTotals,
  checkDonation,
  donationRow,
  referenceNotFound,
  requireDesignation,
} from './rules.ts';
export { createBatch, listBatches, requireBatch, updateBatch } from './batches.ts';
export { type Owner, isOwnRecord } from './owners.ts';
export { batchDepositSummary, countAndCloseBatch, lastBatchCount } from './batch-count.ts';
export {
  type DepositFigures,
  type DepositScope,
  addDepositFigures,
  depositFigures,
  methodCents,
} from './deposit.ts';
export { listCashOverLimit } from './cash-review.ts';
export { giftCheck } from './gift-checks.ts';
export { donationStats } from './stats.ts';
export { contactCredits, raisedByReport } from './raised-by.ts';
export { THANK_YOU_FIELDS, markThanked } from './thank-you.ts';
export { type ThankYouMarksTaken, takeThankYouMarks } from './thank-you-marks.ts';
