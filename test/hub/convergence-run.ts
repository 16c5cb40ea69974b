/**
 * One seed of the convergence check ("one event, one ledger"): a hub and three stations
 * (convergence-rig.ts), a seeded run of operations at random ends through each end's own
 * /api/v1 — donors (namesakes, "Łukasz Żółć" typed "lukasz zolc", sub-records, tags, custom
 * fields), gifts (twin $19.99 cash gifts, credit-to and raised-by, sustainers, gifts against
 * limits), voids and corrections at the hub and at a station, thank-you marks, elections and the
 * default election, letter settings, flag reviews — and kill -9 of the hub or a station at
 * random moments, each coming back on its folder and port. Then, once the event is quiet (every
 * station's outbox empty, its feed at the hub's end), every station's answers are compared with
 * the hub's, read by read.
 *
 * Ids: a record a station typed has its own id there and another at the hub; the comparison
 * names every record by its hub id (each station's `sync_links`). What is normalised, and why:
 * - ids of a donor's sub-records (addresses, phones, emails, education, employment, notes): each
 *   end mints its own, they name nothing another end can ask for;
 * - a flag's id: a flag is the limit check's note on a gift, made where the gift is written;
 *   the gift it belongs to (by its hub id), its kind and window name it;
 * - the sync reference a record carries at the hub and not where it was typed (a donor's last
 *   `gd:` tag, a gift's notes' last line `gd:…`): how the hub knows the record, not what it is;
 * - the board's "here": at the hub it is the hub, at a station that station.
 *
 * Run directly (`node --import tsx test/hub/convergence-run.ts --seed 7`) it prints one JSON line.
 */
import { ELECTION_TYPES, type ElectionType, type PaymentMethod } from '#shared/enums.ts';
import { isolatedEnv } from '../helpers/cli.ts';
import { ACCOUNTS, CUSTOM_FIELDS, type End, type EventRig, startEventRig } from './convergence-rig.ts';
import { until } from './event-rig.ts';

/* ------------------------------------------------------------------ seeded randomness */

/** mulberry32: a small seeded PRNG (the same seed, the same run of operations). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  weighted<T extends string>(w: Record<T, number>): T {
    const entries = Object.entries(w) as Array<[T, number]>;
    let r = this.next() * entries.reduce((s, [, v]) => s + v, 0);
    for (const [k, v] of entries) {
      r -= v;
      if (r < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }
}

/* ------------------------------------------------------------------ the run */

export interface RunOptions {
  seed: number;
  /** Operations in the run (default 40). */
  ops?: number;
  /**
   * `full` (the default): everything above. `basic`: what a station mirrored before the ledger —
   * plain donors and plain gifts to the campaign, no edits, changes, marks or crashes — the
   * check of the check (it must pass on a build that mirrors those).
   */
  profile?: 'full' | 'basic';
  /** Extra environment for the hub (GIFTDESK_LEDGER_SKIP). */
  hubEnv?: Record<string, string>;
  /** How long to wait for the event to go quiet (ms, default 90 s). */
  quietTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RunResult {
  seed: number;
  /** Readable differences between a station's answers and the hub's; empty when they agree. */
  diffs: string[];
  /** By read (e.g. `donor page`, `stats entered today`): the fields that differ at some station. */
  divergent: Record<string, string[]>;
  /** What the ends refused that the run asked (by end role, operation and status/code). */
  refusals: Record<string, number>;
  /** Answers that must never be: a 500, or a refusal of something the rules allow. */
  failures: string[];
  /** Whether the event went quiet (outboxes empty, feeds at the hub's end). */
  quiet: boolean;
  /** Still not quiet: what was waiting. */
  notQuiet: string[];
  ops: Record<string, number>;
  ms: number;
}

interface Donor {
  origin: End;
  originId: string;
  label: string;
}
interface Gift {
  origin: End;
  originId: string;
  donor: Donor;
}

const TODAY = new Date().toISOString().slice(0, 10);
const YEAR = Number(TODAY.slice(0, 4));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Donors the run types: namesakes on purpose. */
const PEOPLE: Array<{ first: string; last: string; email?: string }> = [
  { first: 'Robert', last: 'Brown', email: 'robert.brown@oak.example' },
  { first: 'Robert', last: 'Brown', email: 'rbrown@pine.example' },
  { first: 'Robert', last: 'Brown' },
  { first: 'Łukasz', last: 'Żółć', email: 'lukasz@zolc.example' },
  { first: 'lukasz', last: 'zolc', email: 'lukasz@zolc.example' },
  { first: 'Tom', last: 'Twin', email: 'tom.twin@example.org' },
  { first: 'Maria', last: 'Lopez', email: 'maria.lopez@example.org' },
  { first: 'Chen', last: 'Wei' },
  { first: 'Olivia', last: 'Okonkwo', email: 'olivia@okonkwo.example' },
  { first: 'Aiko', last: 'Tanaka' },
  { first: 'Fatima', last: 'Haddad', email: 'fatima@haddad.example' },
];
const AMOUNTS = [19.99, 19.99, 25, 50, 100, 250, 125.5, 5.25, 499, 600, 2500, 3000];
const METHODS: PaymentMethod[] = ['cash', 'check', 'credit_card', 'cash', 'ach'];

export async function runSeed(opts: RunOptions): Promise<RunResult> {
  const t0 = Date.now();
  const log = opts.log ?? (() => {});
  const dice = new Dice(prng(opts.seed));
  const { env } = isolatedEnv();
  const rig = await startEventRig(env, { ...(opts.hubEnv ? { hubEnv: opts.hubEnv } : {}) });
  log(`seed ${opts.seed}: the event is up after ${Date.now() - t0} ms`);
  const result: RunResult = {
    seed: opts.seed,
    diffs: [],
    divergent: {},
    refusals: {},
    failures: [],
    quiet: false,
    notQuiet: [],
    ops: {},
    ms: 0,
  };
  try {
    await operate(rig, dice, opts.ops ?? 40, result, log, opts.profile === 'basic');
    log(`seed ${opts.seed}: operations done after ${Date.now() - t0} ms`);
    const q = await quiet(rig, opts.quietTimeoutMs ?? 90_000);
    result.quiet = q.quiet;
    result.notQuiet = q.quiet ? [] : q.waiting;
    if (q.quiet && q.waiting.length > 0) {
      result.diffs.push(...q.waiting);
      result.divergent['parked at a station'] = ['needs attention'];
    }
    log(`seed ${opts.seed}: quiet (${q.quiet}) after ${Date.now() - t0} ms`);
    const compared = await compareEnds(rig);
    result.diffs.push(...compared.diffs);
    Object.assign(result.divergent, compared.divergent);
    log(`seed ${opts.seed}: compared after ${Date.now() - t0} ms`);
  } catch (err) {
    result.failures.push(
      `the run stopped: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  } finally {
    await rig.close().catch(() => {});
  }
  result.ms = Date.now() - t0;
  return result;
}

/* ------------------------------------------------------------------ ids across ends */

/** The hub's id of a record typed at `origin` (undefined while the hub has not confirmed it). */
function hubIdOf(rig: EventRig, origin: End, originId: string): string | undefined {
  if (origin.role === 'hub') return originId;
  return rig.idMap(origin).get(originId);
}

/** The id at `end` of a record typed at `origin` (undefined when `end` cannot know it yet). */
function idAt(rig: EventRig, end: End, origin: End, originId: string): string | undefined {
  if (end === origin) return originId;
  const hubId = hubIdOf(rig, origin, originId);
  if (hubId === undefined || end.role === 'hub') return hubId;
  for (const [local, remote] of rig.idMap(end)) if (remote === hubId) return local;
  return hubId;
}

/* ------------------------------------------------------------------ operations */

type Op =
  | 'donor'
  | 'gift'
  | 'twins'
  | 'editDonor'
  | 'void'
  | 'correct'
  | 'thankYou'
  | 'election'
  | 'defaultElection'
  | 'letterSettings'
  | 'flagReview'
  | 'deleteDonor'
  | 'crash';

async function operate(
  rig: EventRig,
  dice: Dice,
  count: number,
  res: RunResult,
  log: (l: string) => void,
  basic: boolean,
) {
  const donors: Donor[] = [];
  const gifts: Gift[] = [];
  const crashes: Promise<void>[] = [];
  const accountId = rig.hub.accountId;

  const refused = (end: End, op: string, r: { status: number; body: unknown; text: string }) => {
    const code = (r.body as { code?: string } | undefined)?.code ?? '';
    const k = `${end.role} ${op}: ${r.status}${code ? ` ${code}` : ''}`;
    res.refusals[k] = (res.refusals[k] ?? 0) + 1;
    // A station asking the hub while the run has killed it answers 503 `hub_unreachable`, nothing
    // changed: what the station is meant to say then, not a failure.
    const hubAway = end.role === 'station' && r.status === 503 && code === 'hub_unreachable';
    if (r.status >= 500 && !hubAway)
      res.failures.push(`${end.name} ${op}: ${r.status} ${r.text.slice(0, 300)}`);
  };

  const known = (end: End, d: Donor) => idAt(rig, end, d.origin, d.originId);
  const donorAt = (end: End, not: string[] = []): string | undefined => {
    for (let tries = 0; tries < 6 && donors.length > 0; tries++) {
      const id = known(end, dice.pick(donors));
      if (id && !not.includes(id)) return id;
    }
    return undefined;
  };

  const newDonor = async (end: End) => {
    const p = dice.pick(PEOPLE);
    const body: Record<string, unknown> = { accountId, firstName: p.first, lastName: p.last };
    if (p.email) body.primaryEmail = p.email;
    // Sub-records, tags and custom fields (none in the basic profile).
    const extra = !basic;
    if (extra && dice.chance(0.4))
      body.phoneNumbers = [{ phoneNumber: `555-01${dice.int(90) + 10}`, phoneType: 'mobile' }];
    if (extra && dice.chance(0.4))
      body.addresses = [
        { street1: `${dice.int(900) + 1} Elm St`, city: 'Springfield', state: 'IL', isPrimary: true },
      ];
    if (extra && dice.chance(0.3)) body.tags = [dice.pick(['volunteer', 'board', 'vip'])];
    if (extra && dice.chance(0.3)) body.customFields = { [CUSTOM_FIELDS[0]!.name]: dice.pick(['yes', 'no']) };
    const r = await end.request('POST', '/api/v1/contacts', body);
    if (r.status === 201 || r.status === 200) {
      log(`${end.name}: donor ${p.first} ${p.last} ${String(r.body.id)} (${r.status})`);
      donors.push({ origin: end, originId: String(r.body.id), label: `${p.first} ${p.last}` });
    } else refused(end, 'donor', r);
  };

  const giftBody = (end: End, contactId: string, amount?: number, method?: PaymentMethod) => {
    const body: Record<string, unknown> = {
      accountId,
      contactId,
      donationAmount: amount ?? dice.pick(AMOUNTS),
      donationDate: TODAY,
      paymentMethod: method ?? dice.pick(METHODS),
    };
    const where = basic ? 0 : dice.int(3);
    if (where === 0) body.campaignId = rig.campaignId;
    else if (where === 1) body.donationAccountId = rig.donationAccountIds[0];
    else {
      body.donationAccountId = rig.donationAccountIds[1];
      body.electionType = dice.pick(['primary', 'general'] as const);
      body.electionYear = YEAR;
    }
    if (basic) return body;
    if (dice.chance(0.2)) {
      const other = donorAt(end, [contactId]);
      if (other) body.onBehalfOfContactId = other;
    }
    if (dice.chance(0.25)) {
      const other = donorAt(end, [contactId, String(body.onBehalfOfContactId ?? '')]);
      if (other) body.facilitatedByContactId = other;
    }
    if (dice.chance(0.15)) body.isRecurring = true;
    if (dice.chance(0.2)) body.notes = dice.pick(['table 4', 'pledge card', 'in memory of Anne']);
    return body;
  };

  const postGift = async (end: End, body: Record<string, unknown>, d: Donor, op: string) => {
    const r = await end.request('POST', '/api/v1/donations', body);
    if (r.status === 201) {
      log(`${end.name}: ${op} ${String(r.body.id)} to ${String(body.contactId)}`);
      gifts.push({ origin: end, originId: String(r.body.id), donor: d });
    } else refused(end, op, r);
  };

  const donorRecordAt = (end: End): { d: Donor; id: string } | undefined => {
    for (let tries = 0; tries < 6 && donors.length > 0; tries++) {
      const d = dice.pick(donors);
      const id = known(end, d);
      if (id) return { d, id };
    }
    return undefined;
  };

  const giftAt = (end: End): { g: Gift; id: string } | undefined => {
    for (let tries = 0; tries < 6 && gifts.length > 0; tries++) {
      const g = dice.pick(gifts);
      // A station changes only the gifts it typed; the hub any gift it holds.
      if (end.role === 'station' && g.origin !== end) continue;
      const id = idAt(rig, end, g.origin, g.originId);
      if (id) return { g, id };
    }
    return undefined;
  };

  /** Whether a station's own gift has reached the hub (a refusal of a change to it is counted apart). */
  const atHub = (g: Gift) => g.origin.role === 'hub' || hubIdOf(rig, g.origin, g.originId) !== undefined;

  const ops: Record<Op, (end: End) => Promise<void>> = {
    donor: newDonor,
    async gift(end) {
      const pick = donorRecordAt(end);
      if (!pick) return newDonor(end);
      await postGift(end, giftBody(end, pick.id), pick.d, 'gift');
    },
    async twins(end) {
      const pick = donorRecordAt(end);
      if (!pick) return newDonor(end);
      const body = giftBody(end, pick.id, 19.99, 'cash');
      await postGift(end, body, pick.d, 'gift');
      await postGift(end, body, pick.d, 'gift');
    },
    async editDonor(end) {
      const pick = donorRecordAt(end);
      if (!pick) return;
      const body: Record<string, unknown> = { accountId };
      const what = dice.int(5);
      if (what === 0)
        body.addresses = [
          {
            street1: `${dice.int(900) + 1} Oak Ave`,
            city: dice.pick(['Chicago', 'Peoria']),
            isPrimary: true,
          },
          ...(dice.chance(0.5) ? [{ street1: 'PO Box 12', city: 'Chicago', addressType: 'mailing' }] : []),
        ];
      else if (what === 1)
        body.emailAddresses = [{ emailAddress: `edit${dice.int(1000)}@example.org`, emailType: 'work' }];
      else if (what === 2)
        body.phoneNumbers = [{ phoneNumber: `555-02${dice.int(90) + 10}`, isPrimary: true }];
      else if (what === 3) body.tags = [dice.pick(['volunteer', 'board', 'vip', 'major donor'])];
      else body.customFields = { [CUSTOM_FIELDS[0]!.name]: dice.pick(['yes', 'no', null]) };
      if (dice.chance(0.3)) body.quickNotes = dice.pick(['prefers email', 'sat at table 9']);
      const r = await end.request('PUT', `/api/v1/contacts/${pick.id}`, body);
      if (r.status !== 200) refused(end, 'editDonor', r);
    },
    async void(end) {
      const pick = giftAt(end);
      if (!pick) return;
      const r = await end.request('POST', `/api/v1/donations/${pick.id}/void`, {
        accountId,
        reason: 'entered twice',
      });
      if (r.status !== 200)
        refused(end, atHub(pick.g) && end.role === 'station' ? 'void (at hub)' : 'void', r);
    },
    async correct(end) {
      const pick = giftAt(end);
      if (!pick) return;
      const body: Record<string, unknown> = { accountId };
      if (dice.chance(0.6)) body.donationAmount = dice.pick(AMOUNTS);
      else body.paymentMethod = dice.pick(METHODS);
      if (dice.chance(0.3)) body.notes = 'corrected at the table';
      const r = await end.request('PATCH', `/api/v1/donations/${pick.id}`, body);
      if (r.status !== 200)
        refused(end, atHub(pick.g) && end.role === 'station' ? 'correct (at hub)' : 'correct', r);
    },
    async thankYou() {
      const hub = rig.hub;
      const ids = [
        ...new Set(gifts.flatMap((g) => (dice.chance(0.4) ? [idAt(rig, hub, g.origin, g.originId)] : []))),
      ]
        .filter((x): x is string => x !== undefined)
        .slice(0, 10);
      if (ids.length === 0) return;
      const r = await hub.request('POST', '/api/v1/donations/thank-you', {
        accountId,
        donations: ids.map((id) => ({ id, thankYouSentDate: TODAY })),
      });
      if (r.status !== 200) refused(hub, 'thankYou', r);
    },
    async election() {
      const type: ElectionType = dice.pick(ELECTION_TYPES.slice(0, 3));
      const r = await rig.hub.request('POST', '/api/v1/elections', {
        accountId,
        electionType: type,
        electionYear: YEAR,
        electionDate: `${YEAR}-${dice.pick(['03', '06', '11'])}-0${dice.int(8) + 1}`,
        isDefault: dice.chance(0.3),
      });
      if (r.status !== 201 && r.status !== 200) refused(rig.hub, 'election', r);
    },
    async defaultElection() {
      const none = dice.chance(0.2);
      const r = await rig.hub.request('PUT', '/api/v1/elections/default', {
        accountId,
        electionType: none ? null : dice.pick(['primary', 'general'] as const),
        electionYear: none ? null : YEAR,
      });
      if (r.status !== 200) refused(rig.hub, 'defaultElection', r);
    },
    async letterSettings() {
      const body: Record<string, unknown> = {
        accountId,
        organizationName: dice.pick(['Riverside Food Bank', 'Riverside Food Bank Inc.']),
        signerName: dice.pick(['Ana Ruiz', 'Ben Cole']),
      };
      if (dice.chance(0.5))
        body.templates = [{ kind: 'thank-you', heading: `Thank you, {{firstName}} (${dice.int(100)})` }];
      const r = await rig.hub.request('PUT', '/api/v1/letters/settings', body);
      if (r.status !== 200) refused(rig.hub, 'letterSettings', r);
    },
    async flagReview() {
      const list = await rig.hub.request('GET', `/api/v1/flags?accountId=${accountId}&state=open`);
      const open = (list.body?.flagged ?? []) as Array<{ id: string }>;
      if (open.length === 0) return;
      const f = dice.pick(open);
      const r = await rig.hub.request('POST', `/api/v1/flags/${f.id}/actions`, {
        accountId,
        action: 'review',
        note: 'checked the card',
      });
      if (r.status !== 200) refused(rig.hub, 'flagReview', r);
    },
    async deleteDonor() {
      const pick = donorRecordAt(rig.hub);
      if (!pick) return;
      const r = await rig.hub.request('DELETE', `/api/v1/contacts/${pick.id}?accountId=${accountId}`);
      if (r.status !== 200 && r.status !== 204) refused(rig.hub, 'deleteDonor', r);
      else donors.splice(donors.indexOf(pick.d), 1);
    },
    async crash() {
      const victim = dice.pick(rig.ends);
      if (!victim.isUp()) return;
      const downMs = dice.int(1500);
      log(`kill -9 ${victim.name} for ${downMs} ms`);
      await victim.kill9();
      crashes.push(sleep(downMs).then(() => victim.restart()));
    },
  };

  const weights: Record<Op, number> = {
    donor: 12,
    gift: 26,
    twins: 4,
    editDonor: 10,
    void: 5,
    correct: 8,
    thankYou: 4,
    election: 2,
    defaultElection: 2,
    letterSettings: 2,
    flagReview: 4,
    // A donor deleted at the hub, maybe while a station types a gift or an edit to them (a station
    // offline, or just behind): the gift wins, the donor comes back everywhere with the station's
    // work (docs/design.md). GIFTDESK_CONVERGENCE_DELETES sets the weight (0 leaves them out).
    deleteDonor: deleteWeight(process.env.GIFTDESK_CONVERGENCE_DELETES),
    crash: 3,
  };
  if (basic)
    for (const op of Object.keys(weights) as Op[])
      if (!['donor', 'gift', 'twins'].includes(op)) weights[op] = 0;
  const hubOnly = new Set<Op>([
    'deleteDonor',
    'thankYou',
    'election',
    'defaultElection',
    'letterSettings',
    'flagReview',
    'crash',
  ]);
  for (let i = 0; i < count; i++) {
    const op = dice.weighted(weights);
    const end = hubOnly.has(op) ? rig.hub : dice.pick(rig.ends);
    res.ops[op] = (res.ops[op] ?? 0) + 1;
    log(`op ${i}: ${op} at ${end.name}`);
    // An operation at an end that is down waits for it (the person at that table waits).
    try {
      await ops[op](end);
    } catch (err) {
      // No answer at all (a connection reset): counted, and the run goes on.
      const k = `${end.role} ${op}: no answer (${err instanceof Error ? err.message : String(err)})`;
      res.refusals[k] = (res.refusals[k] ?? 0) + 1;
    }
    if (dice.chance(0.3)) await sleep(dice.int(60));
  }
  await Promise.all(crashes);
  for (const e of rig.ends) if (!e.isUp()) await e.restart();
}

/** The weight of hub deletions among the operations: GIFTDESK_CONVERGENCE_DELETES, 2 by default. */
function deleteWeight(v: string | undefined): number {
  const n = v === undefined || v === '' ? 2 : Number(v);
  return Number.isFinite(n) && n >= 0 ? n : 2;
}

/* ------------------------------------------------------------------ quiet */

/** Every station's outbox empty and its feed at the hub's end, twice in a row. */
async function quiet(rig: EventRig, timeoutMs: number): Promise<{ quiet: boolean; waiting: string[] }> {
  let waiting: string[] = [];
  let inARow = 0;
  try {
    await until(
      'the event to go quiet',
      async () => {
        waiting = [];
        for (const st of rig.stations) {
          const s = await st.request('GET', `/api/v1/sync/status?accountId=${st.accountId}`);
          if (s.status !== 200) waiting.push(`${st.name}: sync status ${s.status}`);
          else if (s.body.waiting !== 0 || s.body.inFlight !== 0)
            waiting.push(
              `${st.name}: waiting ${s.body.waiting}, in flight ${s.body.inFlight}, needing attention ${s.body.needsAttention}, last error ${s.body.lastError}`,
            );
          else if (!(await rig.feedAtEnd(st))) waiting.push(`${st.name}: its feed is behind the hub's`);
        }
        inARow = waiting.length === 0 ? inARow + 1 : 0;
        return inARow >= 2;
      },
      { timeoutMs, everyMs: 250 },
    );
    // Changes a station parked for a person never reach the hub: the event disagrees with it.
    const parked: string[] = [];
    for (const st of rig.stations) {
      const s = await st.request('GET', `/api/v1/sync/status?accountId=${st.accountId}`);
      for (const a of (s.body?.attention ?? []) as Array<{
        entityType: string;
        label: string;
        code: string;
        reason: string;
      }>)
        parked.push(`${st.name}: ${a.entityType} ${a.label} needs attention (${a.code}): ${a.reason}`);
    }
    return { quiet: true, waiting: parked };
  } catch {
    return { quiet: false, waiting };
  }
}

/* ------------------------------------------------------------------ reads, normalised */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const SUB_RECORDS = new Set([
  'phoneNumbers',
  'emailAddresses',
  'addresses',
  'education',
  'employment',
  'notes',
]);
const REFERENCE_LINE = /(?:^|\n)[ \t\r]*gd:[0-9A-Za-z_]+[ \t\r]*$/;

/** An answer in the hub's names (see the file's comment for what is normalised and why). */
export function normalise(v: unknown, ids: Map<string, string>, key = ''): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    if (ids.has(v)) return ids.get(v)!;
    if (key === 'notes') return v.replace(REFERENCE_LINE, '') || null;
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) {
    let items = v;
    if (key === 'tags') items = v.filter((t) => !(typeof t === 'string' && /^gd:/i.test(t.trim())));
    return items.map((x) => {
      const n = normalise(x, ids, key);
      if (n && typeof n === 'object' && !Array.isArray(n)) {
        if (SUB_RECORDS.has(key)) delete n.id;
        // A flag by its gift (hub id), its limit and its window.
        if (key === 'flagged') n.id = `${String(n.donationId)} ${String(n.limitKind)} ${String(n.window)}`;
      }
      return n;
    });
  }
  const out: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const n = normalise(x, ids, k);
    if (k === 'address' && n && typeof n === 'object' && !Array.isArray(n)) delete n.id;
    out[k] = n;
  }
  return out;
}

/** The board's places as one names them everywhere: `here` is the hub or this station. */
function placesOf(stats: Json, end: End): Json {
  if (!stats || typeof stats !== 'object' || Array.isArray(stats)) return stats;
  const rows = stats.byStation;
  if (!Array.isArray(rows)) return stats;
  const named = rows.map((r) => {
    const o = { ...(r as { [k: string]: Json }) };
    if (o.where === 'here') {
      o.where = end.role === 'hub' ? 'hub' : 'station';
      o.stationId = end.stationId;
    }
    delete o.stationName;
    o.id = `${String(o.where)} ${String(o.stationId)}`;
    return o;
  });
  named.sort(
    (a, b) =>
      String(a.where).localeCompare(String(b.where)) ||
      String(a.stationId).localeCompare(String(b.stationId)),
  );
  // Lists of totals keyed as records are (a campaign's, a bucket's), so a difference names its row.
  const keyed = (xs: Json, key: string) =>
    Array.isArray(xs)
      ? xs.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? { id: String(x[key]), ...x } : x))
      : xs;
  const overTime = stats.overTime as { [k: string]: Json } | null;
  return {
    ...stats,
    byCampaign: keyed(stats.byCampaign ?? null, 'campaignId'),
    byStation: named,
    overTime: overTime ? { ...overTime, points: keyed(overTime.points ?? null, 'start') } : null,
  };
}

interface View {
  /** Read name (e.g. `donor Robert Brown 01J… page`) → normalised answer. */
  reads: Map<string, Json>;
}

async function readView(rig: EventRig, end: End, donorIds: string[]): Promise<View> {
  const local = end.role === 'hub' ? new Map<string, string>() : rig.idMap(end);
  const toLocal = new Map<string, string>();
  for (const [l, r] of local) toLocal.set(r, l);
  const a = end.accountId;
  const reads = new Map<string, Json>();
  const get = async (name: string, p: string) => {
    const r = await end.request('GET', p);
    reads.set(
      name,
      r.status === 200 ? normalise(r.body, local) : { status: r.status, code: r.body?.code ?? null },
    );
  };
  const accounts = rig.donationAccountIds;
  const tasks: Array<() => Promise<void>> = [];
  for (const hubId of donorIds) {
    const id = toLocal.get(hubId) ?? hubId;
    tasks.push(() => get(`donor ${hubId}: page`, `/api/v1/contacts/${id}?accountId=${a}`));
    tasks.push(() =>
      get(`donor ${hubId}: gifts`, `/api/v1/contacts/${id}/donations?accountId=${a}&limit=100`),
    );
    for (const da of accounts) {
      const daLocal = toLocal.get(da) ?? da;
      tasks.push(() =>
        get(
          `donor ${hubId}: gift-check ${da}`,
          `/api/v1/contacts/${id}/gift-check?accountId=${a}&donationAccountId=${daLocal}&donationDate=${TODAY}`,
        ),
      );
    }
  }
  for (const basis of ['donationDate', 'entered'])
    for (const [span, q] of [
      ['today', `&startDate=${TODAY}&endDate=${TODAY}`],
      ['all time', ''],
    ] as const)
      tasks.push(async () => {
        const r = await end.request('GET', `/api/v1/stats/donations?accountId=${a}&basis=${basis}${q}`);
        reads.set(
          `stats ${basis} ${span}`,
          r.status === 200 ? placesOf(normalise(r.body, local), end) : { status: r.status },
        );
      });
  // A few at a time, as a screen's queries go.
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
  const flags = await end.request('GET', `/api/v1/flags?accountId=${a}&state=all`);
  const flagged = flags.status === 200 ? (normalise(flags.body, local) as { flagged: Json[] }).flagged : [];
  reads.set('flags', flags.status === 200 ? flagged : { status: flags.status });
  await get('raised-by', `/api/v1/reports/raised-by?accountId=${a}`);
  const preview = await end.request(
    'GET',
    `/api/v1/letters/preview?accountId=${a}&kind=thank-you&notThanked=true`,
  );
  reads.set('letters preview (thank-you, not thanked)', {
    status: preview.status,
    documents: preview.headers.get('x-letter-documents'),
    gifts: preview.headers.get('x-letter-gifts'),
  });
  await get('letters settings', `/api/v1/letters/settings?accountId=${a}`);
  return { reads };
}

/** The hub ids of the donors an end lists. */
async function donorsListed(rig: EventRig, end: End): Promise<string[]> {
  const local = end.role === 'hub' ? new Map<string, string>() : rig.idMap(end);
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await end.request(
      'GET',
      `/api/v1/contacts?accountId=${end.accountId}&limit=100&offset=${offset}`,
    );
    if (r.status !== 200) throw new Error(`${end.name}: GET /contacts ${r.status} ${r.text}`);
    for (const c of r.body.data as Array<{ id: string }>) ids.push(local.get(c.id) ?? c.id);
    if (offset + 100 >= Number(r.body.total)) break;
  }
  return ids.sort();
}

/** Where two answers differ, as `path: hub … / station …` lines. */
export function diffJson(hub: Json, other: Json, path = '', out: string[] = [], max = 30): string[] {
  if (out.length >= max) return out;
  const show = (v: Json) => {
    const s = JSON.stringify(v);
    return s === undefined ? 'absent' : s.length > 160 ? `${s.slice(0, 157)}…` : s;
  };
  if (hub === other) return out;
  const failed = (v: Json) =>
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    typeof v.status === 'number' &&
    Object.keys(v).length <= 2;
  if (failed(hub) !== failed(other)) {
    out.push(
      `${path || '.'}: hub ${failed(hub) ? show(hub) : 'answers'} / here ${failed(other) ? show(other) : 'answers'}`,
    );
    return out;
  }
  if (
    hub &&
    other &&
    typeof hub === 'object' &&
    typeof other === 'object' &&
    Array.isArray(hub) === Array.isArray(other)
  ) {
    if (Array.isArray(hub) && Array.isArray(other)) {
      // A list of records (every item has an id): matched by id, then its order compared.
      const idOf = (x: Json) =>
        x && typeof x === 'object' && !Array.isArray(x) && typeof x.id === 'string' ? x.id : null;
      if (hub.length + other.length > 0 && [...hub, ...other].every((x) => idOf(x) !== null)) {
        // Two records may share a key (a gift's reviewed flag and the open one a correction
        // raised later, on the same limit and window): the second of a key at the hub is matched
        // with the second of it here, never folded into the first.
        const keyed = (xs: Json[]): Array<[string, Json]> => {
          const seen = new Map<string, number>();
          return xs.map((x) => {
            const id = idOf(x)!;
            const n = seen.get(id) ?? 0;
            seen.set(id, n + 1);
            return [n === 0 ? id : `${id} #${n + 1}`, x];
          });
        };
        const hubKeyed = keyed(hub);
        const otherKeyed = keyed(other);
        const mine = new Map(otherKeyed);
        const theirs = new Set(hubKeyed.map(([id]) => id));
        for (const [id, x] of hubKeyed) {
          if (!mine.has(id)) out.push(`${path}[${id}]: at the hub, not here`);
          else diffJson(x, mine.get(id)!, `${path}[${id}]`, out, max);
        }
        for (const [id] of otherKeyed) if (!theirs.has(id)) out.push(`${path}[${id}]: here, not at the hub`);
        const order = (xs: Array<[string, Json]>, keep: Set<string>) =>
          xs.map(([id]) => id).filter((id) => keep.has(id));
        const both = new Set([...theirs].filter((id) => mine.has(id)));
        if (JSON.stringify(order(hubKeyed, both)) !== JSON.stringify(order(otherKeyed, both)))
          out.push(`${path}: the same records in another order`);
        return out;
      }
      if (hub.length !== other.length)
        out.push(`${path || '.'}: ${hub.length} items at the hub, ${other.length} here`);
      for (let i = 0; i < Math.min(hub.length, other.length); i++)
        diffJson(hub[i]!, other[i]!, `${path}[${i}]`, out, max);
      return out;
    }
    const h = hub as { [k: string]: Json };
    const o = other as { [k: string]: Json };
    for (const k of new Set([...Object.keys(h), ...Object.keys(o)]))
      if (JSON.stringify(h[k]) !== JSON.stringify(o[k])) {
        if (!(k in h) || !(k in o))
          out.push(`${path}.${k}: hub ${show(h[k] ?? null)} / here ${show(o[k] ?? null)}`);
        else diffJson(h[k]!, o[k]!, `${path}.${k}`, out, max);
      }
    return out;
  }
  out.push(`${path || '.'}: hub ${show(hub)} / here ${show(other)}`);
  return out;
}

/** Every station's answers against the hub's: the readable differences (empty when none). */
export async function compareEnds(
  rig: EventRig,
): Promise<{ diffs: string[]; divergent: Record<string, string[]> }> {
  const diffs: string[] = [];
  /** Read kind (e.g. `donor page`) → the fields that differ somewhere (ids left out of the paths). */
  const divergent: Record<string, Set<string>> = {};
  const hubDonors = await donorsListed(rig, rig.hub);
  const stationDonors = await Promise.all(rig.stations.map((st) => donorsListed(rig, st)));
  const [hubView, ...views] = await Promise.all(rig.ends.map((e) => readView(rig, e, hubDonors)));
  const names = new Map<string, string>();
  for (const id of hubDonors) {
    const page = hubView!.reads.get(`donor ${id}: page`) as { firstName?: string; lastName?: string } | null;
    names.set(id, `${page?.firstName ?? '?'} ${page?.lastName ?? '?'}`);
  }
  const accountName = new Map(rig.donationAccountIds.map((id, i) => [id, ACCOUNTS[i]!.name]));
  const label = (read: string) =>
    read
      .replace(/^donor (\S+):/, (_, id: string) => `donor ${names.get(id) ?? '(not at the hub)'} (${id}):`)
      .replace(/gift-check (\S+)$/, (_, id: string) => `gift-check ${accountName.get(id) ?? id}`);
  const kindOf = (read: string) =>
    read.replace(/^donor \S+: /, 'donor ').replace(/gift-check \S+$/, 'gift-check');
  const note = (kind: string, line: string) => {
    const field = line
      .replace(/: .*$/, '')
      .replace(/\[[^\]]*\]/g, '[]')
      .trim();
    (divergent[kind] ??= new Set()).add(field || '.');
  };
  for (const st of rig.stations) {
    const held = rig.heldGifts(st);
    if (held.length) {
      note('held gifts', 'a station holds gifts of the feed back');
      diffs.push(
        `${st.name}: holds back ${held.length} gifts of the hub's feed: ${held.map((h) => `${h.hubId} (missing ${h.missing})`).join(', ')}`,
      );
    }
  }
  rig.stations.forEach((st, i) => {
    const stDonors = stationDonors[i]!;
    const missing = hubDonors.filter((d) => !stDonors.includes(d));
    const extra = stDonors.filter((d) => !hubDonors.includes(d));
    if (missing.length) {
      note('donor list', 'missing at a station');
      diffs.push(
        `${st.name}: ${missing.length} donors of the hub missing: ${missing.map((d) => names.get(d)).join(', ')}`,
      );
    }
    if (extra.length) {
      note('donor list', 'extra at a station');
      diffs.push(`${st.name}: ${extra.length} donors the hub does not list (ids ${extra.join(', ')})`);
    }
    const view = views[i]!;
    for (const [read, h] of hubView!.reads) {
      const lines = diffJson(h, view.reads.get(read) ?? null);
      for (const l of lines) note(kindOf(read), l);
      if (lines.length) diffs.push(`${st.name} — ${label(read)}\n    ${lines.join('\n    ')}`);
    }
  });
  return {
    diffs,
    divergent: Object.fromEntries(Object.entries(divergent).map(([k, v]) => [k, [...v].sort()])),
  };
}

/* ------------------------------------------------------------------ command line */

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const seed = Number(arg('--seed') ?? 1);
  const ops = arg('--ops');
  const skip = arg('--skip');
  const profile = arg('--profile');
  const r = await runSeed({
    seed,
    log: (l) => process.stderr.write(`${new Date().toISOString()} ${l}\n`),
    ...(ops ? { ops: Number(ops) } : {}),
    ...(profile === 'basic' ? { profile: 'basic' as const } : {}),
    ...(skip ? { hubEnv: { GIFTDESK_LEDGER_SKIP: skip } } : {}),
  });
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(0);
}
