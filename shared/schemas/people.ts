/**
 * The people who sign in to a shared server (HQ) with an email and a password: signing in
 * and out, setting a password through a one-time link, and the administrator's list of people
 * (Settings → People).
 */
import { z } from 'zod';
import { accountIdField } from './common.ts';
import { Role } from './roles.ts';

const required = { error: 'is required' };

const email = z
  .string(required)
  .trim()
  .min(1, required)
  .max(254, { error: 'must be at most 254 characters' });

/** The shortest and longest password a person may choose (checked again by the server). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const password = z
  .string(required)
  .min(1, required)
  .max(PASSWORD_MAX, { error: `must be at most ${PASSWORD_MAX} characters` });

export const SignInRequest = z
  .object({
    email,
    password,
    /** Needed only when this email and password open people of more than one account. */
    accountId: accountIdField.optional(),
  })
  .meta({ id: 'SignInRequest' });
export type SignInRequest = z.infer<typeof SignInRequest>;

export const SignedInUser = z.object({ id: z.string(), name: z.string() });

/** A person's session: a key like any other (send X-API-Key and the bearer secret), shown once. */
export const SignInSession = z
  .object({
    keyId: z.string(),
    secret: z.string(),
    accountId: z.string(),
    role: Role,
    user: SignedInUser,
  })
  .meta({ id: 'SignInSession' });
export type SignInSession = z.infer<typeof SignInSession>;

/** Who a request's key is, as the server reads it at this request (a person's role and name included). */
export const Me = z
  .object({
    accountId: z.string(),
    keyId: z.string(),
    session: z.enum(['browser', 'desktop', 'sign-in']).nullable(),
    role: Role,
    user: SignedInUser.nullable(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

/** The optional accountId of a request that acts on its own key (it must be the key's account). */
export const OwnAccount = z.object({ accountId: accountIdField.optional() });

export const SignedOut = z.object({ keyId: z.string(), signedOut: z.literal(true) });

export const SetPasswordRequest = z
  .object({
    token: z.string(required).min(1, required).max(200, { error: 'must be at most 200 characters' }),
    password: z
      .string(required)
      .min(PASSWORD_MIN, { error: `must be at least ${PASSWORD_MIN} characters` })
      .max(PASSWORD_MAX, { error: `must be at most ${PASSWORD_MAX} characters` }),
  })
  .meta({ id: 'SetPasswordRequest' });
export type SetPasswordRequest = z.infer<typeof SetPasswordRequest>;

export const PasswordSet = z.object({ accountId: z.string(), email: z.string() });

export const User = z
  .object({
    id: z.string(),
    accountId: z.string(),
    email: z.string(),
    name: z.string(),
    role: Role,
    /** False until the person has set a password through their link. */
    passwordSet: z.boolean(),
    disabledAt: z.string().nullable(),
    /** When they last signed in; null when not known (never, or not since this was recorded). */
    lastSignInAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const UserCreate = z.object({
  accountId: accountIdField,
  email,
  name: z.string(required).trim().min(1, required).max(200, { error: 'must be at most 200 characters' }),
  role: Role,
});

/** A new person, with the one-time token of their set-password link (shown this once; 24 hours). */
export const UserCreated = User.extend({
  setPasswordToken: z.string(),
  setPasswordExpiresAt: z.string(),
});

/** A new one-time set-password token for a person (shown this once; 24 hours; earlier links stop working). */
export const PasswordLinkIssued = z
  .object({
    id: z.string(),
    email: z.string(),
    setPasswordToken: z.string(),
    setPasswordExpiresAt: z.string(),
  })
  .meta({ id: 'PasswordLinkIssued' });
export type PasswordLinkIssued = z.infer<typeof PasswordLinkIssued>;

/** The refusal's code when a change would leave an account without an enabled administrator. */
export const LAST_ADMINISTRATOR = 'last_administrator';

export const UserPatch = z
  .object({
    accountId: accountIdField.optional(),
    role: Role.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((p) => p.role !== undefined || p.disabled !== undefined, {
    error: 'role or disabled is required',
    path: ['role'],
  });
