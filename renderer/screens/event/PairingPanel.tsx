/**
 * What a station needs to join, at the hub: the hub's address, its certificate's fingerprint,
 * a one-time pairing code with its expiry ("New code" for the next station, or once it has
 * expired; made by itself when a station has just joined), and a QR code of the join link
 * that carries all three (a phone's camera or a pasted link fills the station's form). A hub
 * listening on every network offers each of the machine's addresses: the coordinator picks the
 * one the stations are on (remembered on this computer), and the link and QR code follow it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { joinLinkFor } from '#shared/hub-link.ts';
import type { HubCode, HubInfo } from '#shared/schemas/hub.ts';
import { useApi } from '../../api/provider.tsx';
import { Button, Select, useToast } from '../../ui/index.ts';
import { clockTime } from '../settings/sync-keys.ts';
import { eventKeys } from './event-words.ts';
import { QrCode } from './QrCode.tsx';

type Code = z.infer<typeof HubCode>;

/** The time now, ticking every second while `on` (for the code's "expires in"). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

/**
 * A station joined (the list the stations table keeps fresh grew): the code shown was most
 * likely the one it used, so `renew` makes the next station's at once. Reads the stations
 * table's query (no request of its own).
 */
function useNewCodeAfterJoin(renew: () => void): void {
  const api = useApi();
  const stations = useQuery({ queryKey: eventKeys.stations, queryFn: () => api.hub.stations() });
  const joined = stations.data?.stations.length;
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (joined === undefined) return;
    const before = seen.current;
    seen.current = joined;
    if (before !== undefined && joined > before) renew();
  }, [joined]); // renew is a new function each render: only a change in the count matters
}

/**
 * The address the stations use, among those the hub answers at: the one picked on this computer
 * before while the hub still answers there, else the hub's shown address.
 */
function useChosenAddress(info: z.infer<typeof HubInfo>): [string | null, (url: string) => void] {
  const key = `giftdesk.hubAddress.${info.accountId}`;
  const [picked, setPicked] = useState<string | null>(() => localStorage.getItem(key));
  const chosen = picked && info.addresses.includes(picked) ? picked : (info.url ?? info.addresses[0] ?? null);
  const choose = (url: string) => {
    localStorage.setItem(key, url);
    setPicked(url);
  };
  return [chosen, choose];
}

/** "9:42" from milliseconds. */
function minutesSeconds(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function PairingPanel({ info }: { info: z.infer<typeof HubInfo> }) {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  // A code is made once when the hub is shown (one-time, 10 minutes); then only on request.
  const code = useQuery({
    queryKey: eventKeys.code,
    queryFn: () => api.hub.newCode(),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  const newCode = useMutation({
    mutationFn: () => api.hub.newCode(),
    onSuccess: (c) => qc.setQueryData(eventKeys.code, c),
    onError: (err) => toast.show({ message: err.message, tone: 'error' }),
  });
  useNewCodeAfterJoin(() => newCode.mutate());
  const c = code.data;
  const now = useNow(c !== undefined);
  const expired = c ? Date.parse(c.expiresAt) <= now : false;
  const [address, chooseAddress] = useChosenAddress(info);
  const joinLink =
    c && address ? joinLinkFor({ url: address, code: c.code, fingerprint: info.fingerprint }) : null;
  return (
    <section className="panel event-pairing" aria-labelledby="event-pairing-title">
      <h3 id="event-pairing-title" className="panel-title">
        Pairing a station
      </h3>
      {info.addresses.length > 1 ? (
        <Select
          label="Address the stations use"
          value={address ?? ''}
          options={info.addresses.map((a) => ({ value: a, label: new URL(a).host }))}
          onChange={(e) => chooseAddress(e.target.value)}
          hint="This laptop is on more than one network: choose the one the station laptops are on. The link and the QR code follow."
        />
      ) : null}
      <div className="event-pairing-body">
        <dl className="event-facts">
          <div>
            <dt>Hub address</dt>
            <dd data-testid="hub-url">{address ?? c?.url ?? '—'}</dd>
          </div>
          <div>
            <dt>Certificate fingerprint</dt>
            <dd className="event-mono" data-testid="hub-fingerprint">
              {info.fingerprint}
            </dd>
          </div>
          <div>
            <dt>Pairing code</dt>
            <dd>
              {c ? (
                <CodeNow c={c} expired={expired} now={now} />
              ) : code.isError ? (
                <span className="notice notice-error">No code could be made: {code.error.message}</span>
              ) : (
                <span className="muted">Making a code…</span>
              )}
            </dd>
          </div>
        </dl>
        {joinLink && !expired ? (
          <figure className="event-qr-figure">
            <QrCode
              text={joinLink}
              label="QR code of the join link: the hub’s address, the code and the fingerprint"
            />
            <figcaption className="muted">Scan, or paste the link below, on the station.</figcaption>
          </figure>
        ) : null}
      </div>
      <div className="event-pairing-actions">
        <Button
          tone={expired ? 'primary' : 'secondary'}
          busy={newCode.isPending}
          onClick={() => newCode.mutate()}
        >
          New code
        </Button>
        {joinLink && !expired ? <JoinLink link={joinLink} /> : null}
      </div>
      <p className="muted">
        Each code pairs one station and works for 10 minutes. On the station, in Settings, Event: “Join an
        event”.
      </p>
    </section>
  );
}

/** The code, large, and when it expires (or that it has). */
function CodeNow({ c, expired, now }: { c: Code; expired: boolean; now: number }) {
  return (
    <>
      <span className={`event-code${expired ? ' event-code-expired' : ''}`} data-testid="hub-code">
        {c.code}
      </span>{' '}
      {expired ? (
        <span className="notice notice-warn" data-testid="hub-code-expiry">
          Expired: press New code.
        </span>
      ) : (
        <span className="muted" data-testid="hub-code-expiry">
          expires at <time dateTime={c.expiresAt}>{clockTime(c.expiresAt, now)}</time> (in{' '}
          {minutesSeconds(Date.parse(c.expiresAt) - now)})
        </span>
      )}
    </>
  );
}

/** The join link, selectable, and a button that copies it. */
function JoinLink({ link }: { link: string }) {
  const toast = useToast();
  return (
    <>
      <label className="visually-hidden" htmlFor="event-join-link">
        Join link
      </label>
      <input
        id="event-join-link"
        className="event-link event-mono"
        readOnly
        value={link}
        data-testid="hub-join-link"
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button
        onClick={() =>
          void navigator.clipboard.writeText(link).then(
            () => toast.show({ message: 'Join link copied.', tone: 'success' }),
            () => toast.show({ message: 'Copying was refused: select the link and copy it.', tone: 'error' }),
          )
        }
      >
        Copy link
      </Button>
    </>
  );
}
