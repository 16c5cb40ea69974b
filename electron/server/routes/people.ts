/**
 * People who sign in (a shared server's staff): POST /sign-in trades an email and a password
 * for a session key, POST /sign-out ends it, POST /set-password spends a one-time link; and
 * the administrator's list (GET and POST /users, PATCH /users/{id}, a new set-password link
 * with POST /users/{id}/password-link). The last enabled administrator cannot be demoted or
 * disabled (409 last_administrator, the domain's users.ts). Sign-in and set-password
 * are public (gates.ts); the throttle of wrong passwords is the domain's (accounts/sign-in.ts),
 * counted by the request's source address. GET /me says who a key is (the screens read a
 * person's name and role from it).
 */
import { ErrorBody, accountQuery } from '#shared/schemas/common.ts';
import {
  Me,
  OwnAccount,
  PasswordLinkIssued,
  PasswordSet,
  SetPasswordRequest,
  SignInRequest,
  SignInSession,
  SignedOut,
  User,
  UserCreate,
  UserCreated,
  UserPatch,
} from '#shared/schemas/people.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addUser,
  getUser,
  issuePasswordToken,
  listUsers,
  revokeApiKey,
  setPasswordWithToken,
  signIn,
  updateUser,
} from '../../domain/accounts/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import { errorBody } from '../errors.ts';
import { scopedAccount } from '../scope.ts';
import { IdParams, errors, listOf, tags } from './common.ts';

export async function peopleRoutes(app: FastifyInstance, ctx: DomainContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/sign-in', {
    schema: {
      tags,
      summary:
        'Sign in with an email and a password: a session key (send it as X-API-Key and the bearer secret) that ends at sign-out, after 12 hours unused, or when the person is disabled. Repeated wrong passwords from one address are answered 429 with Retry-After.',
      body: SignInRequest,
      response: { 201: SignInSession, ...errors(400, 403), 429: ErrorBody },
    },
    handler: async (req, reply) => {
      const r = await signIn(ctx, { ...req.body, address: req.ip });
      if (r.kind === 'wait') {
        return reply
          .code(429)
          .header('Retry-After', String(r.retryAfter))
          .send({
            ...errorBody(
              429,
              'sign_in_throttled',
              `Too many wrong passwords from here: try again in ${r.retryAfter} s.`,
            ),
            retryAfter: r.retryAfter,
          });
      }
      return reply.code(201).header('Cache-Control', 'no-store').send(r.session);
    },
  });

  r.get('/me', {
    schema: {
      tags,
      summary:
        'Who this key is: its account, its kind of session, the role it acts in and its person (read now)',
      querystring: OwnAccount,
      response: { 200: Me, ...errors(400, 403) },
    },
    handler: async (req) => {
      scopedAccount(req, req.query.accountId);
      const { accountId, keyId, session, role, user } = req.auth!;
      return { accountId, keyId, session, role, user };
    },
  });

  r.post('/sign-out', {
    schema: {
      tags,
      summary: "End this session (a person's sign-in, or a browser window's session)",
      body: OwnAccount.nullish(),
      response: { 200: SignedOut, ...errors(400, 403) },
    },
    handler: async (req) => {
      scopedAccount(req, req.body?.accountId);
      const auth = req.auth!;
      if (auth.session !== 'sign-in' && auth.session !== 'browser')
        throw new DomainError(
          'bad_request',
          'not_a_session',
          'Only a session signs out; a permanent key is revoked with DELETE /api/v1/api-keys/{id}.',
          [{ field: 'X-API-Key', issue: 'is not a session key' }],
        );
      await revokeApiKey(ctx, auth.keyId, auth.accountId);
      return { keyId: auth.keyId, signedOut: true as const };
    },
  });

  r.post('/set-password', {
    schema: {
      tags,
      summary: "Set a person's password with the one-time token of their link (24 hours, once)",
      body: SetPasswordRequest,
      response: { 200: PasswordSet, ...errors(400) },
    },
    handler: async (req, reply) => {
      const done = await setPasswordWithToken(ctx, req.body.token, req.body.password);
      return reply.header('Cache-Control', 'no-store').send({ accountId: done.accountId, email: done.email });
    },
  });

  r.get('/users', {
    schema: {
      tags,
      summary: 'The people of the account who sign in (administrators)',
      querystring: accountQuery,
      response: { 200: listOf(User), ...errors(400, 403) },
    },
    handler: async (req) => ({ data: await listUsers(ctx, scopedAccount(req, req.query.accountId)) }),
  });

  r.post('/users', {
    schema: {
      tags,
      summary:
        'Add a person (administrators); the answer carries the one-time token of their set-password link, shown this once',
      body: UserCreate,
      response: { 201: UserCreated, ...errors(400, 403, 409) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const u = await addUser(ctx, { ...req.body, accountId });
      const link = await issuePasswordToken(ctx, accountId, u.id);
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ ...u, setPasswordToken: link.token, setPasswordExpiresAt: link.expiresAt });
    },
  });

  r.patch('/users/:id', {
    schema: {
      tags,
      summary:
        "Change a person's role, or disable them (their sessions end at once) or enable them again (administrators). Demoting or disabling the account's last enabled administrator is refused: 409 last_administrator.",
      params: IdParams,
      body: UserPatch,
      response: { 200: User, ...errors(400, 403, 404, 409) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      await getUser(ctx, accountId, req.params.id);
      return updateUser(ctx, accountId, req.params.id, req.body);
    },
  });

  r.post('/users/:id/password-link', {
    schema: {
      tags,
      summary:
        "A new one-time token for a person's set-password link (administrators): shown this once, good for 24 hours; their earlier links stop working",
      params: IdParams,
      body: OwnAccount.nullish(),
      response: { 201: PasswordLinkIssued, ...errors(400, 403, 404) },
    },
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body?.accountId);
      const u = await getUser(ctx, accountId, req.params.id);
      const link = await issuePasswordToken(ctx, accountId, u.id);
      const issued = {
        id: u.id,
        email: u.email,
        setPasswordToken: link.token,
        setPasswordExpiresAt: link.expiresAt,
      };
      return reply.code(201).header('Cache-Control', 'no-store').send(issued);
    },
  });
}
