/**
 * Shapes of GiftDesk's extension routes (beyond the spec): reference data, custom field
 * definitions, elections, the contribution-limit review queue and cash over the limit, API
 * keys, imports.
 */
import { z } from 'zod';
import { CUSTOM_FIELD_TYPES, ELECTION_TYPES, FLAG_STATES, LIMIT_KINDS } from '../enums.ts';
import { accountIdField, dateOnly, limitDollars, requiredText, typeError } from './common.ts';
import { Role } from './roles.ts';

const electionType = z.enum(ELECTION_TYPES, {
  error: typeError(`must be one of: ${ELECTION_TYPES.join(', ')}`),
});
const electionYear = z
  .number({ error: typeError('must be a year') })
  .int()
  .min(1900)
  .max(2200);
const note = z.string().trim().max(2000).nullish();

export const Limits = z.object({
  perElection: z.number().nullable(),
  perCycle: z.number().nullable(),
  perYear: z.number().nullable(),
  perDonor: z.number().nullable(),
});
export const LimitsInput = z.object({
  perElection: limitDollars,
  perCycle: limitDollars,
  perYear: limitDollars,
  perDonor: limitDollars,
});

export const DonationAccount = z
  .object({ id: z.string(), name: z.string(), limits: Limits, createdAt: z.string() })
  .meta({ id: 'DonationAccount' });
export const DonationAccountCreate = z.object({
  accountId: accountIdField,
  name: requiredText(200),
  limits: LimitsInput.partial().optional(),
});
export const DonationAccountUpdate = z.object({
  accountId: accountIdField.optional(),
  name: requiredText(200).optional(),
  limits: LimitsInput.partial().optional(),
});

export const Campaign = z
  .object({
    id: z.string(),
    name: z.string(),
    donationAccounts: z.array(z.object({ id: z.string(), name: z.string() })),
    totalRaised: z.number(),
    donationCount: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'Campaign' });
export const CampaignCreate = z.object({
  accountId: accountIdField,
  name: requiredText(200),
  donationAccountIds: z.array(z.string().max(64)).max(50).optional(),
});

export const CampaignUpdate = z.object({
  accountId: accountIdField.optional(),
  name: requiredText(200).optional(),
  donationAccountIds: z.array(z.string().max(64)).max(50).optional(),
});

export const Committee = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string() })
  .meta({ id: 'Committee' });
export const CommitteeCreate = z.object({ accountId: accountIdField, name: requiredText(200) });
export const CommitteeUpdate = z.object({
  accountId: accountIdField.optional(),
  name: requiredText(200).optional(),
});

export const CustomFieldDefinition = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    archived: z.boolean(),
    options: z.array(z.object({ id: z.string(), name: z.string(), retired: z.boolean() })),
    createdAt: z.string(),
  })
  .meta({ id: 'CustomFieldDefinition' });
export const CustomFieldCreate = z.object({
  accountId: accountIdField,
  name: requiredText(100),
  type: z.enum(CUSTOM_FIELD_TYPES, { error: typeError(`must be one of: ${CUSTOM_FIELD_TYPES.join(', ')}`) }),
  options: z.array(requiredText(100)).max(200).optional(),
});
export const CustomFieldAction = z.discriminatedUnion(
  'action',
  [
    z.object({ accountId: accountIdField, action: z.literal('addOption'), option: requiredText(100) }),
    z.object({ accountId: accountIdField, action: z.literal('retireOption'), option: requiredText(100) }),
    z.object({ accountId: accountIdField, action: z.literal('archive') }),
    z.object({ accountId: accountIdField, action: z.literal('unarchive') }),
  ],
  { error: typeError('must be one of: addOption, retireOption, archive, unarchive') },
);

export const Election = z
  .object({
    id: z.string(),
    electionType,
    electionYear: z.number().int(),
    electionDate: z.string(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'Election' });
export const ElectionCreate = z.object({
  accountId: accountIdField,
  electionType,
  electionYear,
  electionDate: dateOnly,
  isDefault: z.boolean().optional(),
});
export const DefaultElection = z.object({
  accountId: accountIdField,
  electionType: electionType.nullable(),
  electionYear: electionYear.nullable(),
});

export const Flag = z
  .object({
    id: z.string(),
    donationId: z.string(),
    contactId: z.string(),
    contactName: z.string(),
    donationAmount: z.number(),
    donationDate: z.string(),
    donationAccountId: z.string(),
    donationAccountName: z.string(),
    electionType: z.string(),
    electionYear: z.number().int(),
    limitKind: z.enum(LIMIT_KINDS),
    window: z.string(),
    limit: z.number(),
    donorTotal: z.number(),
    overBy: z.number(),
    state: z.enum(FLAG_STATES),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    resolutionNote: z.string().nullable(),
  })
  .meta({ id: 'LimitFlag' });
export const FlagList = z.object({ flagged: z.array(Flag) });

/** A completed cash gift over the cash limit (#shared/cash-rules.ts): Review lists it to look at. */
export const CashGift = z
  .object({
    donationId: z.string(),
    contactId: z.string(),
    contactName: z.string(),
    donationAmount: z.number(),
    donationDate: z.string(),
    campaignName: z.string().nullable(),
  })
  .meta({ id: 'CashGift' });
/** Newest gift first; `total` counts them all when more than the 500 listed. */
export const CashGiftList = z.object({ gifts: z.array(CashGift), total: z.number().int() });
export const FlagListQuery = z.object({
  accountId: accountIdField,
  state: z.enum(['open', 'all']).optional(),
});
export const FlagActionBody = z.discriminatedUnion(
  'action',
  [
    z.object({ accountId: accountIdField, action: z.literal('review'), note }),
    z.object({ accountId: accountIdField, action: z.literal('refund'), note }),
    z.object({
      accountId: accountIdField,
      action: z.literal('redesignate'),
      electionType,
      electionYear,
      note,
    }),
  ],
  { error: typeError('must be one of: review, refund, redesignate') },
);

export { DonationHistoryEntry } from './history.ts';

export const ApiKey = z
  .object({
    keyId: z.string(),
    label: z.string().nullable(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    /** null: a permanent key; 'desktop': the desktop window's key, which ends with its process; 'browser': a browser window's, which ends when a person ends it or after 12 hours unused. */
    session: z.enum(['browser', 'desktop', 'sign-in']).nullable(),
    /** What the key may do (the route rules); keys made before roles are 'administrator'. */
    role: Role,
  })
  .meta({ id: 'ApiKey' });
export const ApiKeyCreate = z.object({
  accountId: accountIdField,
  label: z.string().trim().max(100).nullish(),
  /** The role the new key acts in; 'administrator' when left out. */
  role: Role.optional(),
});
export const ApiKeyCreated = z.object({
  keyId: z.string(),
  secret: z.string(),
  accountId: z.string(),
  role: Role,
});
export const ApiKeyRevoked = z.object({ keyId: z.string(), revoked: z.literal(true) });

export const Account = z.object({
  id: z.string(),
  name: z.string(),
  defaultElection: z.object({ electionType, electionYear: z.number().int() }).nullable(),
  contacts: z.number().int(),
  donations: z.number().int(),
  createdAt: z.string(),
  /** The role the key asking acts in: what this session may do (the screens hide the rest). */
  role: Role,
});
