/**
 * The event's routes, typed like the rest of the client (./endpoints.ts): what this GiftDesk
 * is in the account's event (GET /event), joining one as a station and the notices a station
 * keeps; and, at the hub, hosting, pairing codes, the stations and the close-out (/hub/…).
 * Every answer is parsed with the shared schema the server answers with.
 */
import type { z } from 'zod';
import {
  CloseOut,
  EventJoinBody,
  EventJoined,
  EventJoinProgress,
  EventStatus,
  HubCode,
  HubHostBody,
  HubInfo,
  HubNoticeList,
  HubRevoked,
  HubStationList,
} from '#shared/schemas/hub.ts';
import type { ApiClient } from './client.ts';

type Body<S extends z.ZodType> = Omit<z.input<S>, 'accountId'>;

export function eventEndpoints(c: ApiClient) {
  return {
    /** What this GiftDesk is in the account's event: none, its hub, or one of its stations. */
    status: () => c.request('GET', '/event', { schema: EventStatus }),
    /**
     * Joins the event as a station: the hub's address (or its join link), the code, the
     * fingerprint. The answer's session, when there is one, is the window's key for the
     * event's account (the hub's), which this window then takes.
     */
    join: (body: Body<typeof EventJoinBody>) =>
      c.request('POST', '/event/join', { schema: EventJoined, body }),
    /** What the join under way here is doing (asked while "Join the event" waits). */
    joinProgress: () => c.request('GET', '/event/join/progress', { schema: EventJoinProgress }),
    notices: () => c.request('GET', '/event/notices', { schema: HubNoticeList }),
  };
}

export function hubEndpoints(c: ApiClient) {
  return {
    /** The hub's address and certificate fingerprint (404 when this GiftDesk hosts no event). */
    info: () => c.request('GET', '/hub', { schema: HubInfo }),
    /** Starts hosting the event from this running GiftDesk. */
    host: (body: Body<typeof HubHostBody>) => c.request('POST', '/hub/host', { schema: HubInfo, body }),
    /** A fresh one-time pairing code (10 minutes), with the join link the QR code carries. */
    newCode: () => c.request('POST', '/hub/codes', { schema: HubCode, body: {} }),
    stations: () => c.request('GET', '/hub/stations', { schema: HubStationList }),
    revoke: (stationId: string) =>
      c.request('POST', `/hub/stations/${encodeURIComponent(stationId)}/revoke`, {
        schema: HubRevoked,
        body: {},
      }),
    closeOut: () => c.request('GET', '/hub/close-out', { schema: CloseOut }),
  };
}
