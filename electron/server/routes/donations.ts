import { accountQuery } from '#shared/schemas/common.ts';
import {
  DonationCreateRequest,
  DonationCreated,
  DonationDetail,
  DonationList,
  DonationListQuery,
  DonationPatchBody,
  DonationVoidBody,
} from '#shared/schemas/donations.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type ChangeAsker,
  correctDonation,
  createDonationOnce,
  getDonation,
  listDonations,
  voidDonation,
} from '../../domain/donations/index.ts';
import { type DomainContext, DomainError, invalidField } from '../../domain/index.ts';
import { toIsoInstant } from '#shared/dates.ts';
import { hasStations } from '../../hub/index.ts';
import { type HubChange, askHub, hubHold } from '../../sync/index.ts';
import { acting, scopedAccount } from '../scope.ts';
import { mayBeUpstream } from './resent.ts';
import { IdParams, domainTypedSerializer, errors } from './common.ts';
import type { SyncServices } from './sync.ts';

const tags = ['Donations'];

/**
 * `specOnly` (`giftdesk serve --spec-only`): the donor API's two routes only, as documented —
 * no create-once by a `gd:` reference (D7: a re-posted gift is a second gift), no batch.
 */
export async function donationRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  sync: SyncServices | undefined,
  opts: { specOnly?: boolean } = {},
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const specOnly = opts.specOnly === true;

  /**
   * At a station of an event hub, a gift the hub holds is changed by the hub (its rules, its
   * refusal once it sent the gift to HQ): the station asks it and reads its feed, then answers
   * with its copy. True when the hub was asked; false when the gift is corrected here as ever.
   */
  async function askedHub(accountId: string, id: string, change: HubChange): Promise<boolean> {
    const hold = await hubHold(ctx.store, accountId, id);
    if (hold === null || hold.at === 'local') return false;
    if (hold.at === 'sending')
      throw new DomainError(
        'conflict',
        'donation_sending',
        `Gift ${id} is being handed to the event hub right now: try again in a moment.`,
        [{ field: 'id', issue: 'is being handed to the event hub' }],
      );
    if (!sync)
      throw new DomainError(
        'conflict',
        'sync_unavailable',
        'This server cannot reach the event hub (no key source): change the gift in the app',
      );
    const scheduler = sync.scheduler;
    await askHub({
      store: ctx.store,
      keys: sync.keys,
      accountId,
      donationId: id,
      hubId: hold.hubId,
      change,
      ...(scheduler ? { readNow: () => scheduler.readHubNow(accountId) } : {}),
    });
    return true;
  }

  /** Who asks: a station's key (only its own gifts), and whether this account is an event's hub. */
  async function asker(req: FastifyRequest, accountId: string): Promise<ChangeAsker> {
    const stationId = req.station?.id ?? null;
    return { stationId, atHub: stationId !== null || (await hasStations(ctx.store.db, accountId)) };
  }

  r.get('/donations', {
    schema: {
      tags,
      summary: 'List donations, newest first',
      querystring: DonationListQuery,
      response: { 200: DonationList, ...errors(400, 403) },
    },
    serializerCompiler: domainTypedSerializer,
    handler: async (req) =>
      listDonations(ctx, { ...req.query, accountId: scopedAccount(req, req.query.accountId) }),
  });

  r.post('/donations', {
    schema: {
      tags,
      summary: 'Record a donation (GiftDesk also takes `batchId`, the gift-entry batch it is typed in)',
      description:
        'GiftDesk records a gift once per sync reference: when the last line of `notes` is a GiftDesk reference ' +
        '(`gd:` then an id, nothing else on the line) and the account already holds a gift created with it, the answer ' +
        'is 200 with that gift, and nothing is written (no second gift, no totals changed). Otherwise 201. (A gift ' +
        "typed in GiftDesk's own window is not read for a reference.) An event station's key may send `enteredAt`, when " +
        "the gift was entered at the station: the hub keeps it as the gift's `createdAt`; from any other key it is a 400. " +
        'Likewise `enteredByName`, the person who typed it at the station: the hub records it as who entered the gift, ' +
        'and `voided` (`{ reason }`), a gift voided at the station before it was sent: the hub records it voided in the same step. ' +
        '`resentSince` (from another GiftDesk): the gift was sent before to an upstream that is lost and may be at HQ ' +
        'already; this server looks for it at HQ before sending it on.',
      body: DonationCreateRequest,
      response: { 201: DonationCreated, 200: DonationCreated, ...errors(400, 403, 404, 409, 413) },
    },
    serializerCompiler: domainTypedSerializer,
    handler: async (req, reply) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const { batchId, enteredAt, enteredByName, resentSince, voided, ...body } = req.body;
      // At an event hub, a gift sent by a station's key is stamped with that station and keeps
      // the time it was entered there; no other key says when a gift was entered. A gift typed
      // in the app's window carries no sync reference (WriteOptions). Without a station's key
      // the domain stamps the gift with this GiftDesk's own station, if it is one.
      if (enteredAt !== undefined && !req.station)
        throw invalidField('enteredAt', "is taken only from an event station's key");
      if (enteredByName !== undefined && !req.station)
        throw invalidField('enteredByName', "is taken only from an event station's key");
      if (voided !== undefined && !req.station)
        throw invalidField('voided', "is taken only from an event station's key");
      const as = acting(ctx, req);
      // A station's gift: its key and station, and the person who typed it there by name.
      const enteredBy =
        as.actor && enteredByName !== undefined ? { ...as.actor, name: enteredByName } : undefined;
      const { donation, created } = await createDonationOnce(
        as,
        { ...body, accountId },
        specOnly
          ? { syncReference: false }
          : {
              batchId,
              ...(enteredBy ? { enteredBy } : {}),
              ...(req.station ? { stationId: req.station.id } : {}),
              ...(enteredAt !== undefined ? { enteredAt: toIsoInstant(enteredAt) ?? enteredAt } : {}),
              ...(voided !== undefined ? { voided: { reason: voided.reason || null } } : {}),
              syncReference: !req.auth?.session,
              ...mayBeUpstream(ctx, 'donation', resentSince),
            },
      );
      return reply.code(created ? 201 : 200).send(donation);
    },
  });

  if (specOnly) return;

  r.get('/donations/:id', {
    schema: {
      tags: ['Extensions'],
      summary: 'Read one donation in full (GiftDesk extension)',
      params: IdParams,
      querystring: accountQuery,
      response: { 200: DonationDetail, ...errors(400, 403, 404) },
    },
    handler: async (req) => getDonation(ctx, scopedAccount(req, req.query.accountId), req.params.id),
  });

  r.patch('/donations/:id', {
    schema: {
      tags: ['Extensions'],
      summary: 'Correct a gift not yet sent to HQ (GiftDesk extension)',
      description:
        "Any create field but the account; every create rule applies again. A gift that was sent to HQ (or is being sent) is read-only: 409, because HQ's API cannot change a gift. " +
        "At an event hub, a station's key corrects only the gifts typed at that station (403 otherwise). At a station, a gift the hub holds is corrected by the hub: the station asks it and answers with its copy once the hub's feed brought the change (503 when the hub cannot be reached, nothing changed).",
      params: IdParams,
      body: DonationPatchBody,
      response: { 200: DonationDetail, ...errors(400, 403, 404, 409, 503) },
    },
    handler: async (req) => {
      const { accountId: sent, ...patch } = req.body;
      const accountId = scopedAccount(req, sent);
      if (await askedHub(accountId, req.params.id, { kind: 'correct', patch }))
        return getDonation(ctx, accountId, req.params.id);
      return correctDonation(acting(ctx, req), accountId, req.params.id, patch, await asker(req, accountId));
    },
  });

  r.post('/donations/:id/void', {
    schema: {
      tags: ['Extensions'],
      summary: 'Void a gift not yet sent to HQ (GiftDesk extension)',
      description:
        'The gift stays on record with status voided, leaves totals and lists, and is never sent. A gift already sent to HQ (or being sent) cannot be voided here: 409. ' +
        "At an event hub, a station's key voids only the gifts typed at that station (403 otherwise). At a station, a gift the hub holds is voided by the hub (see the correction).",
      params: IdParams,
      body: DonationVoidBody,
      response: { 200: DonationDetail, ...errors(400, 403, 404, 409, 503) },
    },
    handler: async (req) => {
      const accountId = scopedAccount(req, req.body.accountId);
      const reason = req.body.reason ?? null;
      if (await askedHub(accountId, req.params.id, { kind: 'void', reason }))
        return getDonation(ctx, accountId, req.params.id);
      return voidDonation(acting(ctx, req), accountId, req.params.id, reason, await asker(req, accountId));
    },
  });
}
