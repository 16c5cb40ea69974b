/**
 * An event whose HQ speaks only the donor API (`serve --spec-only`: no route for thank-you
 * marks, no lists of campaigns and the rest). Every part is its own `giftdesk` process: HQ, the
 * hub (`serve --hub`, pushing to HQ), a station (`hub join`, then `serve`), and a fresh laptop
 * that only runs `sync pull`. What HQ does not take is said once, in words, where each person
 * looks — the join's output, `sync status`, a letters run that marks gifts, the pull — and
 * nothing is lost or doubled: the marks stay at the station and the hub, nothing waits for them,
 * nothing needs attention, and HQ holds every gift once.
 */
import { afterAll, expect, it } from 'vitest';
import { type CliResult, cliJson, isolatedEnv, runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/server.ts';
import {
  type HqSide,
  type HubSide,
  type StationSide,
  joinStation,
  startHq,
  startHub,
  until,
} from './event-rig.ts';

const { env } = isolatedEnv();
const DAY = '2026-11-28';
const parts: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const p of parts.reverse()) await p.close().catch(() => undefined);
});

/** How many times the output says that HQ will not have the marks (each saying ends by asking to mark them at HQ). */
function marksSaid(text: string): number {
  return text.match(/mark (them|such gifts) thanked at HQ/gi)?.length ?? 0;
}

function ok(r: CliResult): string {
  if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

interface HqGift {
  id: string;
  donationAmount: number;
  notes: string | null;
  thankYouSent?: boolean;
}

async function hqGifts(hq: HqSide): Promise<HqGift[]> {
  const r = await hq.request('GET', `/api/v1/donations?accountId=${hq.accountId}&limit=100`);
  expect(r.status, r.text).toBe(200);
  return r.body.donations as HqGift[];
}

const status = (dataDir: string) => cliJson(['sync', 'status', '--data-dir', dataDir], env);

const HUB_HQ_SAYS =
  'HQ does not take thank-you marks (it speaks only the donor API, which cannot change a gift once it has it): a gift marked thanked after it reached HQ stays marked here only. Mark such gifts thanked at HQ if HQ needs them.';
const STATION_SAYS =
  "The event hub's HQ does not take thank-you marks (it speaks only the donor API): gifts marked thanked here are marked at the event hub too, but not at HQ. Mark them thanked at HQ if HQ needs them.";

it('a station of a hub whose HQ speaks only the donor API, a thank-you run at each, and a fresh laptop pulling: each says once what HQ does not take, and nothing is lost', async () => {
  const hq = await startHq(env, { specOnly: true });
  parts.push(hq);
  // The hub's coordinator pulls before the event (event-rig): the pull asks HQ about marks.
  const hub: HubSide = await startHub(env, { upstream: { url: hq.url, hq } });
  parts.push(hub);

  // The hub says it from the start, before any gift is marked: once.
  const hubBefore = ok(await runCli(['sync', 'status', '--data-dir', hub.dataDir], env));
  expect(marksSaid(hubBefore), hubBefore).toBe(1);
  expect(hubBefore).toContain(HUB_HQ_SAYS);

  // A station joins: its `hub join` says, once, that the hub's HQ will not get the marks.
  const code = await hub.code();
  const other = tempDir('giftdesk-event-station-b-');
  parts.push({ close: async () => undefined });
  const joinedText = ok(
    await runCli(
      [
        'hub',
        'join',
        code.url,
        '--code',
        code.code,
        '--fingerprint',
        code.fingerprint,
        '--name',
        'Table B',
        '--data-dir',
        other,
      ],
      env,
    ),
  );
  expect(marksSaid(joinedText), joinedText).toBe(1);
  expect(joinedText).toContain(STATION_SAYS);
  const otherStatus = ok(await runCli(['sync', 'status', '--data-dir', other], env));
  expect(marksSaid(otherStatus), otherStatus).toBe(1);

  // The station that serves: two identical $19.99 cash gifts from one Robert Brown.
  const st: StationSide = await joinStation(env, hub, 'Table A');
  parts.push(st);
  const donor = await st.request('POST', '/api/v1/contacts', {
    accountId: st.accountId,
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'robert.brown@example.org',
  });
  expect(donor.status, donor.text).toBe(201);
  for (let i = 0; i < 2; i++) {
    const g = await st.request('POST', '/api/v1/donations', {
      accountId: st.accountId,
      contactId: donor.body.id,
      donationAmount: 19.99,
      donationDate: DAY,
      paymentMethod: 'cash',
      campaignId: st.campaignId,
    });
    expect(g.status, g.text).toBe(201);
  }
  await until('both gifts at HQ', async () => ((await hqGifts(hq)).length === 2 ? true : undefined));
  await until('the station told by the hub', async () =>
    (await status(st.dataDir)).marksNote === STATION_SAYS ? true : undefined,
  );

  // A thank-you run at the station marks both; its output says once that HQ will not get them.
  const stRun = ok(
    await runCli(
      [
        'letters',
        '--account',
        st.accountId,
        '--kind',
        'thank-you',
        '--from',
        DAY,
        '--to',
        DAY,
        '--out',
        `${st.dataDir}/thanks.pdf`,
        '--mark-sent',
        '--data-dir',
        st.dataDir,
      ],
      env,
    ),
  );
  expect(stRun).toContain('Marked 2 gifts as thanked.');
  expect(marksSaid(stRun), stRun).toBe(1);
  expect(stRun).toContain(STATION_SAYS);

  // The marks reach the hub (GiftDesk), and the hub keeps them: nothing waits, nothing parked.
  const hubAfter = await until('the hub kept both marks', async () => {
    const s = await status(hub.dataDir);
    return s.marksKeptHere === 2 && s.waiting === 0 ? s : undefined;
  });
  expect(hubAfter).toMatchObject({ needsAttention: 0, waiting: 0 });
  const stAfter = await until('the station sent its marks', async () => {
    const s = await status(st.dataDir);
    return s.waiting === 0 ? s : undefined;
  });
  expect(stAfter).toMatchObject({ needsAttention: 0, marksKeptHere: 0, marksNote: STATION_SAYS });
  const stText = ok(await runCli(['sync', 'status', '--data-dir', st.dataDir], env));
  expect(marksSaid(stText), stText).toBe(1);
  const hubText = ok(await runCli(['sync', 'status', '--data-dir', hub.dataDir], env));
  expect(marksSaid(hubText), hubText).toBe(1);
  expect(hubText).toContain('Thank-you marks of 2 gifts already at HQ are kept here only');

  // A gift typed at the hub, at HQ, then a thank-you run at the hub: said once there too.
  const hubGift = await hub.request('POST', '/api/v1/donations', {
    accountId: hub.accountId,
    contactId: (await hub.request('GET', `/api/v1/contacts?accountId=${hub.accountId}&search=Brown`)).body
      .data[0].id,
    donationAmount: 19.99,
    donationDate: DAY,
    paymentMethod: 'cash',
    campaignId: (await hub.request('GET', `/api/v1/campaigns?accountId=${hub.accountId}`)).body.data[0].id,
  });
  expect(hubGift.status, hubGift.text).toBe(201);
  await until('three gifts at HQ', async () => ((await hqGifts(hq)).length === 3 ? true : undefined));
  // The hub's run goes through the app's routes (the Letters screen's "Mark as sent").
  const started = await hub.request('POST', '/api/v1/letters/runs', {
    accountId: hub.accountId,
    kind: 'thank-you',
    from: DAY,
    to: DAY,
    notThanked: true,
  });
  expect(started.status, started.text).toBe(201);
  await until("the hub's run printed", async () => {
    const r = await hub.request('GET', `/api/v1/letters/runs/${started.body.id}?accountId=${hub.accountId}`);
    return r.body?.status === 'done' ? true : undefined;
  });
  const marked = await hub.request('POST', `/api/v1/letters/runs/${started.body.id}/mark-sent`, {
    accountId: hub.accountId,
  });
  expect(marked.status, marked.text).toBe(200);
  // Only the hub's own gift was not thanked yet there: the station's two marks are at the hub.
  expect(marked.body.marked).toBe(1);
  expect(marksSaid(String(marked.body.marksNote))).toBe(1);
  await until('the hub kept the third mark', async () => {
    const s = await status(hub.dataDir);
    return s.marksKeptHere === 3 && s.waiting === 0 && s.needsAttention === 0 ? true : undefined;
  });

  // HQ: each gift once, the twins two; none marked there (it cannot be told).
  const atHq = await hqGifts(hq);
  expect(atHq).toHaveLength(3);
  expect(new Set(atHq.map((g) => g.notes?.split('\n').at(-1))).size).toBe(3);

  // A fresh laptop pulls from the same HQ: one sentence for what it gives and takes.
  const laptop = tempDir('giftdesk-laptop-');
  parts.push({ close: async () => undefined });
  const acct = await cliJson(['account', 'create', '--name', 'Office laptop', '--data-dir', laptop], env);
  await cliJson(
    [
      'sync',
      'configure',
      '--account',
      String(acct.id),
      '--url',
      hq.url,
      '--key-id',
      hq.keyId,
      '--secret',
      hq.secret,
      '--remote-account',
      hq.accountId,
      '--data-dir',
      laptop,
    ],
    env,
  );
  const pulled = ok(await runCli(['sync', 'pull', '--data-dir', laptop], env));
  expect(pulled).toMatch(/^Pulled 1 page of contacts from HQ: 1 added/);
  expect(marksSaid(pulled), pulled).toBe(1);
  expect(pulled.match(/donor API/g), pulled).toHaveLength(1);
  expect(pulled).not.toContain('HQ does not list');
  expect(pulled).toContain('It does not list campaigns, committees or donation accounts');
  const again = await cliJson(['sync', 'pull', '--data-dir', laptop], env);
  expect(again).toMatchObject({
    status: 'done',
    hqTakesThankYouMarks: false,
    counts: { created: 0, unchanged: 1 },
  });
  expect(String(again.hqNote)).toContain('HQ speaks only the donor API');
  expect(again.notes).toEqual(
    expect.arrayContaining([
      'HQ does not list campaigns: link each one used by gifts with giftdesk sync link.',
    ]),
  );
  const laptopStatus = ok(await runCli(['sync', 'status', '--data-dir', laptop], env));
  expect(marksSaid(laptopStatus), laptopStatus).toBe(1);
  expect(laptopStatus).toContain(HUB_HQ_SAYS);
}, 600_000);
