/**
 * A hub lost for good, every part its own process with its own data folder (event-rig.ts):
 * HQ (`giftdesk serve`, or `giftdesk serve --spec-only`: the donor API alone, which creates
 * whatever it is sent — then the campaign and donation account are linked by hand), hub A (`giftdesk serve --hub`) pushing to HQ through a fault proxy,
 * and two stations paired with it by code.
 *
 * Table A and Table B enter gifts — twin $19.99 cash gifts of one donor, Robert Browns with and
 * without an email, gifts to the other table's donor — and hub A takes them all. It takes the
 * first part on to HQ; then the internet goes, hub A gets the rest, and hub A is lost: its
 * process killed (kill -9) and its data folder deleted. The tables keep typing.
 *
 * Then the coordinator does what docs/event-day.md says: `giftdesk hub leave` on Table B is
 * refused (its gifts have not reached any hub) with what to do instead; Table A moves to a
 * fresh hub B (`giftdesk hub join URL --code --fingerprint --replace`), which pushes to HQ;
 * Table B hands its work to HQ directly (`giftdesk hub leave --to-hq URL --key-id … --secret …
 * --remote-account …`). Both are served again and everything drains.
 *
 * At the end HQ holds every gift exactly once under the reference of the table that typed it
 * (the first part came through hub A, the rest through hub B or straight from Table B), and each
 * donor once: Tom Twin, Maria Lopez, and the four Robert Browns (two without an email, one of
 * them given to at both tables) stay four. Against a spec-only HQ that holds only because every
 * record sent again is looked for first, at each hop, by its reference (outbox/resend.ts).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationReferenceOf, referenceFor } from '#shared/sync-reference.ts';
import { cliJson, isolatedEnv, runCli } from '../helpers/cli.ts';
import { rawRequest } from '../helpers/server.ts';
import { type FaultProxy, forwardAll, startFaultProxy } from '../sync/fault-proxy.ts';
import {
  type GiftdeskChild,
  type HqSide,
  type HubSide,
  type StationSide,
  joinStation,
  linkByHand,
  listOf,
  spawnGiftdesk,
  startHq,
  startHub,
  stopChild,
  until,
} from './event-rig.ts';

/** The scenario against one kind of HQ (replace.test.ts: GiftDesk; replace-spec-only.test.ts: the donor API alone). */
export function replaceScenario(kind: 'giftdesk' | 'spec-only'): void {
  const { env } = isolatedEnv();
  const TODAY = new Date().toISOString().slice(0, 10);

  let hq: HqSide;
  let proxy: FaultProxy;
  let hubA: HubSide;
  let hubB: HubSide | null = null;
  let tableA: StationSide;
  let tableB: StationSide;
  /** Each table's serve process after it was served again (the rig's own is stopped by then). */
  const served = new Map<StationSide, GiftdeskChild>();

  interface Entered {
    station: StationSide;
    id: string;
    cents: number;
  }
  const entered: Entered[] = [];

  beforeAll(async () => {
    hq = await startHq(env, { specOnly: kind === 'spec-only' });
    proxy = await startFaultProxy({ target: hq.url, rule: forwardAll });
    hubA = await startHub(env, { upstream: { url: proxy.url, hq } });
    [tableA, tableB] = await Promise.all([
      joinStation(env, hubA, 'Table A', { rate: 200 }),
      joinStation(env, hubA, 'Table B', { rate: 200 }),
    ]);
  }, 300_000);

  afterAll(async () => {
    for (const p of served.values()) await stopChild(p);
    await Promise.all([tableA?.close(), tableB?.close()]);
    await hubB?.close();
    await hubA?.close();
    await proxy?.close();
    await hq?.close();
  });

  async function donor(
    st: StationSide,
    firstName: string,
    lastName: string,
    email?: string,
  ): Promise<string> {
    const r = await st.request('POST', '/api/v1/contacts', {
      accountId: st.accountId,
      firstName,
      lastName,
      ...(email ? { primaryEmail: email } : {}),
    });
    if (r.status !== 201)
      throw new Error(`${st.name}: contact ${firstName} ${lastName}: ${r.status} ${r.text}`);
    return String(r.body.id);
  }

  async function gift(st: StationSide, contactId: string, dollars: number, method: string): Promise<void> {
    const r = await st.request('POST', '/api/v1/donations', {
      accountId: st.accountId,
      contactId,
      donationAmount: dollars,
      donationDate: TODAY,
      paymentMethod: method,
      campaignId: st.campaignId,
      donationAccountId: st.donationAccountId,
    });
    if (r.status !== 201) throw new Error(`${st.name}: gift of ${dollars}: ${r.status} ${r.text}`);
    entered.push({ station: st, id: String(r.body.id), cents: Math.round(dollars * 100) });
  }

  /** The local id of a donor the hub's feed brought to this station (another table's). */
  function arrived(st: StationSide, email: string): Promise<string> {
    return until(`${st.name}: the donor ${email} from the hub`, async () => {
      const r = await st.watch(
        'GET',
        `/api/v1/contacts?accountId=${st.accountId}&search=${encodeURIComponent(email)}&limit=5`,
      );
      return listOf(r.body)[0]?.id;
    });
  }

  async function waitingAt(st: StationSide): Promise<number> {
    const r = await st.watch('GET', `/api/v1/sync/status?accountId=${st.accountId}`);
    return r.status === 200 ? Number(r.body.waiting) + Number(r.body.needsAttention) : -1;
  }

  type HqGift = { id: string; contactId: string; donationAmount: number; notes: string | null };
  async function hqGifts(): Promise<HqGift[]> {
    const all: HqGift[] = [];
    for (let offset = 0; ; offset += 100) {
      const r = await hq.request(
        'GET',
        `/api/v1/donations?accountId=${hq.accountId}&limit=100&offset=${offset}`,
      );
      if (r.status !== 200) throw new Error(`HQ's gifts: ${r.status} ${r.text}`);
      all.push(...r.body.donations);
      if (all.length >= r.body.total || r.body.donations.length === 0) return all;
    }
  }

  /** Serves a table's data folder again on its own port (after a command run with it stopped). */
  async function serveAgain(st: StationSide): Promise<void> {
    const port = new URL(st.url).port;
    const p = await spawnGiftdesk(
      ['serve', '--port', port, '--json', '--rate', '200', '--burst', '400', '--data-dir', st.dataDir],
      env,
    );
    served.set(st, p);
  }

  describe(`a hub lost after the tables handed it gifts (HQ: ${kind === 'spec-only' ? 'the donor API alone' : 'GiftDesk'})`, () => {
    const ids: Record<string, string> = {};
    let beforeLoss = 0;

    it('hub A takes every gift, and the first part of them on to HQ', async () => {
      ids.tom = await donor(tableA, 'Tom', 'Twin', 'tom.twin@example.org');
      ids.oak = await donor(tableA, 'Robert', 'Brown', 'robert.brown@oak.example');
      ids.maria = await donor(tableB, 'Maria', 'Lopez', 'maria.lopez@example.org');
      ids.pine = await donor(tableB, 'Robert', 'Brown', 'rbrown@pine.example');
      await gift(tableA, ids.tom!, 19.99, 'cash');
      await gift(tableA, ids.tom!, 19.99, 'cash');
      await gift(tableA, ids.oak!, 50, 'check');
      await gift(tableB, ids.maria!, 100, 'check');
      await gift(tableB, ids.pine!, 25, 'cash');
      const firstPart = entered.length;
      await until('HQ to hold the first part', async () => (await hqGifts()).length === firstPart);

      // The venue's internet goes: hub A keeps the rest to itself.
      proxy.setRule(() => ({ kind: 'resetBeforeForward' }));
      await gift(tableA, ids.tom!, 19.99, 'cash');
      await gift(tableA, ids.tom!, 19.99, 'cash');
      ids.brownA = await donor(tableA, 'Robert', 'Brown');
      await gift(tableA, ids.brownA!, 10, 'cash');
      // Each table gives to the other's donor (they came down hub A's feed).
      ids.mariaAtA = await arrived(tableA, 'maria.lopez@example.org');
      ids.tomAtB = await arrived(tableB, 'tom.twin@example.org');
      await gift(tableA, ids.mariaAtA!, 40, 'credit_card');
      await gift(tableB, ids.tomAtB!, 19.99, 'cash');
      // Table A's Robert Brown without an email, at Table B: only his reference tells him apart.
      ids.brownAatB = await until('Table B: Table A’s Robert Brown without an email', async () => {
        const r = await tableB.watch(
          'GET',
          `/api/v1/contacts?accountId=${tableB.accountId}&search=${encodeURIComponent('robert brown')}&limit=20`,
        );
        return listOf(r.body).find((c) => c.email === null || c.email === undefined)?.id;
      });
      await gift(tableB, ids.brownAatB!, 15, 'cash');
      await gift(tableB, ids.pine!, 30, 'check');
      for (const st of [tableA, tableB])
        await until(`${st.name}: everything at hub A`, async () => (await waitingAt(st)) === 0);
      beforeLoss = entered.length;
      expect((await hqGifts()).length, 'HQ has the first part only').toBe(firstPart);
    }, 300_000);

    it('hub A is lost; the tables keep typing', async () => {
      await hubA.kill9();
      fs.rmSync(hubA.dataDir, { recursive: true, force: true });
      ids.brownB = await donor(tableB, 'Robert', 'Brown');
      await gift(tableB, ids.brownB!, 5, 'cash');
      await gift(tableA, ids.tom!, 19.99, 'cash');
      expect(entered.length).toBeGreaterThan(beforeLoss);
      expect(await waitingAt(tableB)).toBeGreaterThan(0);
    }, 300_000);

    it('leaving with changes no hub has and nowhere to hand them is refused, saying what to do', async () => {
      const r = await runCli(['hub', 'leave', '--data-dir', tableB.dataDir], env);
      expect(r.status).not.toBe(0);
      const said = `${r.stdout}${r.stderr}`;
      expect(said).toMatch(/not reached the event hub/);
      expect(said).toMatch(/--to-hq/);
      expect(said).toMatch(/--replace/);
      const ev = await tableB.watch('GET', `/api/v1/event?accountId=${tableB.accountId}`);
      expect(ev.body.role, 'Table B is still a station').toBe('station');
      // A data folder that belongs to no event (HQ's) has no hub to replace, and none to leave.
      const fresh = hq.dataDir;
      const replace = await runCli(
        [
          'hub',
          'join',
          hubA.url,
          '--code',
          'ABCD-EFGH',
          '--fingerprint',
          hubA.fingerprint,
          '--replace',
          '--data-dir',
          fresh,
        ],
        env,
      );
      expect(replace.status).not.toBe(0);
      expect(`${replace.stdout}${replace.stderr}`).toMatch(/not a station of an event/);
      const leave = await runCli(['hub', 'leave', '--data-dir', fresh], env);
      expect(leave.status).not.toBe(0);
      expect(`${leave.stdout}${leave.stderr}`).toMatch(/not a station of an event/);
      // Nor may it sync to HQ while it belongs to the event.
      const cfg = await runCli(
        [
          'sync',
          'configure',
          '--account',
          tableB.accountId,
          '--url',
          hq.url,
          '--key-id',
          hq.keyId,
          '--secret',
          hq.secret,
          '--remote-account',
          hq.accountId,
          '--data-dir',
          tableB.dataDir,
        ],
        env,
      );
      expect(cfg.status).not.toBe(0);
    }, 300_000);

    it('Table A moves to a fresh hub B, Table B hands its work to HQ, and HQ holds each gift once', async () => {
      hubB = await startHub(env, { upstream: { url: hq.url, hq } });
      const code = await hubB.code();
      await stopChild(tableA.proc);
      const moved = await cliJson(
        [
          'hub',
          'join',
          code.url,
          '--code',
          code.code,
          '--fingerprint',
          code.fingerprint,
          '--name',
          'Table A',
          '--replace',
          '--data-dir',
          tableA.dataDir,
        ],
        env,
      );
      expect(moved.accountId, 'Table A keeps its account').toBe(tableA.accountId);
      const replaced = moved.replaced as { resent: number; donors: number; previousHubUrl: string };
      expect(replaced.previousHubUrl).toBe(hubA.url);
      expect(replaced.resent).toBeGreaterThan(0);
      expect(replaced.donors, 'Maria, typed at Table B, goes with her gift').toBe(1);
      await serveAgain(tableA);

      await stopChild(tableB.proc);
      const left = await cliJson(
        [
          'hub',
          'leave',
          '--to-hq',
          hq.url,
          '--key-id',
          hq.keyId,
          '--secret',
          hq.secret,
          '--remote-account',
          hq.accountId,
          '--data-dir',
          tableB.dataDir,
        ],
        env,
      );
      expect(left.hq).toEqual({ baseUrl: hq.url, remoteAccountId: hq.accountId });
      expect(left.pulled).toEqual({ ok: true });
      if (hq.specOnly) {
        // HQ lists no campaigns: the leave said so; the coordinator links them by hand.
        expect(JSON.stringify(left)).not.toMatch(/"ok":false/);
        await linkByHand(env, tableB.dataDir, tableB.accountId, hq, tableB);
      }
      await serveAgain(tableB);

      // A gift typed at Table A after the move goes the same way.
      await gift(tableA, ids.oak!, 75, 'check');

      for (const st of [tableA, tableB])
        await until(`${st.name}: nothing waiting`, async () => (await waitingAt(st)) === 0);
      await until('hub B: everything at HQ', async () => {
        const r = await hubB!.request('GET', `/api/v1/sync/status?accountId=${hubB!.accountId}`);
        return r.status === 200 && r.body.waiting === 0 && r.body.needsAttention === 0;
      });

      const all = await hqGifts();
      const byRef = new Map<string, number[]>();
      for (const d of all) {
        const ref = donationReferenceOf(d.notes) ?? `(no reference) ${d.id}`;
        byRef.set(ref, [...(byRef.get(ref) ?? []), Math.round(d.donationAmount * 100)]);
      }
      const wrong = entered
        .map((e) => ({ e, got: byRef.get(referenceFor(e.id)) ?? [] }))
        .filter(({ e, got }) => got.length !== 1 || got[0] !== e.cents)
        .map(({ e, got }) => `${e.station.name} ${e.id} ($${e.cents / 100}): at HQ ${JSON.stringify(got)}`);
      expect(wrong, 'gifts not at HQ exactly once under their table’s reference').toEqual([]);
      expect(all.length, 'gifts at HQ').toBe(entered.length);
      expect(
        all.reduce((s, d) => s + Math.round(d.donationAmount * 100), 0),
        'total at HQ, cents',
      ).toBe(entered.reduce((s, e) => s + e.cents, 0));
      const twins = entered.filter((e) => e.cents === 1999);
      expect(twins.length, 'the $19.99 cash twins').toBe(6);

      const contacts = async (search: string) => {
        const r = await hq.request(
          'GET',
          `/api/v1/contacts?accountId=${hq.accountId}&search=${encodeURIComponent(search)}&limit=100`,
        );
        return listOf(r.body) as unknown as Array<{
          id: string;
          firstName: string;
          lastName: string;
          email: string | null;
        }>;
      };
      const tom = await contacts('tom.twin@example.org');
      expect(tom, 'Tom Twin at HQ').toHaveLength(1);
      expect(
        (await hqGifts()).filter((g) => g.contactId === tom[0]!.id).map((g) => g.donationAmount),
        'Tom Twin’s gifts at HQ',
      ).toEqual([19.99, 19.99, 19.99, 19.99, 19.99, 19.99]);
      expect(await contacts('maria.lopez@example.org'), 'Maria Lopez at HQ').toHaveLength(1);
      const browns = (await contacts('robert brown')).filter(
        (c) => c.firstName === 'Robert' && c.lastName === 'Brown',
      );
      expect(browns.map((c) => c.email ?? '(none)').sort(), 'the four Robert Browns at HQ').toEqual([
        '(none)',
        '(none)',
        'rbrown@pine.example',
        'robert.brown@oak.example',
      ]);

      // Table A is hub B's station, Table B an ordinary GiftDesk syncing to HQ.
      const evA = await tableA.watch('GET', `/api/v1/event?accountId=${tableA.accountId}`);
      expect(evA.body.role).toBe('station');
      expect(evA.body.hubUrl).toBe(hubB.url);
      const evB = await tableB.watch('GET', `/api/v1/event?accountId=${tableB.accountId}`);
      expect(evB.body.role).toBe('none');
      const syncB = await rawRequest(
        `${tableB.url}/api/v1/sync/status?accountId=${tableB.accountId}`,
        'GET',
        undefined,
        { 'x-api-key': tableB.keyId, authorization: `Bearer ${tableB.secret}` },
      );
      expect(syncB.body.remoteKind).toBe('hq');

      // Hub B has everything Table A typed: Table A may leave the event with nothing to hand over.
      const leftA = await cliJson(['hub', 'leave', '--data-dir', tableA.dataDir], env);
      expect(leftA).toMatchObject({ accountId: tableA.accountId, hubUrl: hubB.url, hq: null, resent: 0 });
      const evAfter = await tableA.watch('GET', `/api/v1/event?accountId=${tableA.accountId}`);
      expect(evAfter.body.role).toBe('none');
      expect((await hqGifts()).length, 'gifts at HQ after Table A left').toBe(entered.length);
    }, 300_000);
  });
}
