/**
 * Reference records a gift is credited to: campaigns, committees and donation accounts with
 * their contribution limits (records.ts). The folder's surface: the server, the CLI and the
 * shell import from here (eslint.config.js).
 */
export {
  createCampaign,
  createCommittee,
  createDonationAccount,
  listCampaigns,
  listCommittees,
  listDonationAccounts,
  requireCampaign,
  requireCommittee,
  requireDonationAccount,
  updateCampaign,
  updateCommittee,
  updateDonationAccountLimits,
} from './records.ts';
