/**
 * Random local writes, as a volunteer and the local API make them at a real event: contacts
 * created, edited (scalar fields, tags, a phone collection, a custom field) and deleted; gifts
 * entered for existing donors. All through the domain, on the local SQLite file, so every
 * write lands in the outbox exactly as in the app. Deterministic for a seed (up to timing).
 *
 * The data is messy on purpose, and every seed holds each of these event cases (`CASES`):
 * - `twins`: identical twin gifts and triplets (same donor, $19.99 cash, same minute, same
 *   campaign, no notes), entered back to back, some while a pass is running;
 * - `namesakes`: same first and last name with another email (accents typed or not: José
 *   Núñez / Jose Nunez), and the same (household) email with another name;
 * - `giftToNewContact`: gifts to a contact created a moment ago, its create not confirmed;
 * - `hqEditedNotes`: staff rewrite a pushed gift's notes in HQ's web application (its `gd:`
 *   reference gone), some while a twin of it is on the wire;
 * - `deleteUnknown`: contacts deleted while their create is on the wire or its outcome unknown;
 * - `racingEdit`: contacts edited while their create is on the wire.
 * The last three and some staff edits happen inside the fault proxy's rule (`eventRule`, in
 * `workload-faults.ts`), at the moment the engine's request is between the laptop and HQ.
 */
import { createContact, deleteContact, updateContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import type { ContactUpdateBody } from '#shared/schemas/contacts.ts';
import { CUSTOM_FIELD, type LocalSide } from './rig.ts';
import { createRng, type Rng } from './random.ts';

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Ken',
  'Frances',
  'Tony',
  'Radia',
  'Niklaus',
  'Zoë',
  'José',
  'Jose',
  'Robert',
  'Roberta',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Thompson',
  'Allen',
  'Hoare',
  'Perlman',
  'Wirth',
  'Ørsted',
  'Núñez',
  'Nunez',
  'Brown',
];
const ORGS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', null];
const TAGS = ['donor', 'volunteer', 'board', 'major', 'lapsed', 'vip'];
const METHODS = ['cash', 'check', 'credit_card', 'ach', 'venmo', 'in_kind'] as const;
/** What staff type over a gift's notes in HQ's web application. */
const STAFF_NOTES = ['thank-you card sent', 'receipt mailed', 'matched by employer', 'Called to thank'];

export const CASES = [
  'twins',
  'namesakes',
  'giftToNewContact',
  'hqEditedNotes',
  'deleteUnknown',
  'racingEdit',
] as const;
export type EventCase = (typeof CASES)[number];

interface Person {
  firstName: string;
  lastName: string;
  email: string | null;
}

export interface WorkloadState {
  /** Live local contacts and how many gifts each has. */
  contacts: Map<string, number>;
  donations: string[];
  writes: number;
  counter: number;
  /** Names and primary emails of the live contacts (for namesakes). */
  people: Map<string, Person>;
  /** Local record → the event cases it belongs to. */
  cases: Map<string, Set<EventCase>>;
  /** How many times each case happened in this run. */
  seen: Record<EventCase, number>;
  /** Gift → its twin group (all gifts of the group, itself included). */
  twins: Map<string, string[]>;
  /** HQ donation id → the notes staff wrote over it at HQ. */
  hqNotes: Map<string, string>;
  /** Contacts a write of the workload is using right now (never deleted under it by the proxy's rule). */
  busy: Set<string>;
  /** The next contact create on the wire gets an edit racing it / is deleted under it. */
  forceRace: boolean;
  forceDelete: boolean;
  /** Starts a sync pass if none is running (set by the suite). */
  kick?: () => void;
  /** Staff rewrite an HQ gift's notes in HQ's web application (set by the suite). */
  staffEditNotes?: (hqDonationId: string, notes: string) => Promise<void>;
  /**
   * The soft credits, hosts and sustainer flags of the gifts: a stream of its own (from the
   * seed), so the rest of a seed's workload is the same as without them.
   */
  creditRng?: Rng;
}

export function newWorkload(): WorkloadState {
  return {
    contacts: new Map(),
    donations: [],
    writes: 0,
    counter: 0,
    people: new Map(),
    cases: new Map(),
    seen: Object.fromEntries(CASES.map((c) => [c, 0])) as Record<EventCase, number>,
    twins: new Map(),
    hqNotes: new Map(),
    busy: new Set(),
    forceRace: false,
    forceDelete: false,
  };
}

export function tag(w: WorkloadState, id: string, c: EventCase): void {
  const s = w.cases.get(id) ?? new Set<EventCase>();
  s.add(c);
  w.cases.set(id, s);
}

/** The name as typed by someone who does not reach for accents. */
function plain(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/Ø/g, 'O')
    .replace(/ø/g, 'o');
}

export function contactEdit(rng: Rng, w: WorkloadState): ContactUpdateBody {
  const body: ContactUpdateBody = {};
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) {
    switch (rng.int(0, 7)) {
      case 0:
        body.firstName = rng.pick(FIRST);
        break;
      case 1:
        body.lastName = rng.pick(LAST);
        break;
      case 2:
        body.primaryEmail = rng.chance(0.2) ? null : `p${++w.counter}.${rng.int(0, 1e6)}@example.org`;
        break;
      case 3:
        body.organization = rng.pick(ORGS);
        break;
      case 4:
        body.quickNotes = rng.chance(0.2) ? null : `note ${rng.int(0, 999)}`;
        break;
      case 5:
        body.tags = rng.shuffle([...TAGS]).slice(0, rng.int(0, 3));
        break;
      case 6:
        body.phoneNumbers = Array.from({ length: rng.int(0, 2) }, (_, k) => ({
          phoneNumber: `+1 555 01${rng.int(10, 99)}`,
          phoneType: k === 0 ? 'mobile' : 'home',
          isPrimary: k === 0,
        }));
        break;
      case 7:
        body.customFields = { [CUSTOM_FIELD]: rng.chance(0.25) ? null : rng.pick(['S', 'M', 'L', 'XL']) };
        break;
    }
  }
  return body;
}

export async function editContact(
  local: LocalSide,
  w: WorkloadState,
  id: string,
  body: ContactUpdateBody,
): Promise<void> {
  await updateContact(local.ctx, local.accountId, id, body);
  w.writes++;
  const p = w.people.get(id);
  if (p) {
    if (body.firstName !== undefined) p.firstName = body.firstName;
    if (body.lastName !== undefined) p.lastName = body.lastName;
    if (body.primaryEmail !== undefined) p.email = body.primaryEmail;
  }
}

/** Deletes a contact the caller already took out of `w.contacts`. */
export async function removeContact(local: LocalSide, w: WorkloadState, id: string): Promise<void> {
  await deleteContact(local.ctx, local.accountId, id);
  w.writes++;
}

async function newContact(local: LocalSide, rng: Rng, w: WorkloadState, person: Person): Promise<string> {
  const c = await createContact(local.ctx, {
    accountId: local.accountId,
    firstName: person.firstName,
    lastName: person.lastName,
    ...(person.email ? { primaryEmail: person.email } : {}),
    ...(rng.chance(0.4) ? { tags: [rng.pick(TAGS)] } : {}),
    ...(rng.chance(0.3) ? { customFields: { [CUSTOM_FIELD]: rng.pick(['S', 'M', 'L']) } } : {}),
  });
  w.writes++;
  w.contacts.set(c.id, 0);
  w.people.set(c.id, { ...person });
  return c.id;
}

async function withBusy<T>(w: WorkloadState, ids: string[], fn: () => Promise<T>): Promise<T> {
  const mine = ids.filter((id) => !w.busy.has(id));
  for (const id of mine) w.busy.add(id);
  try {
    return await fn();
  } finally {
    for (const id of mine) w.busy.delete(id);
  }
}

function freshEmail(rng: Rng, w: WorkloadState): string {
  return `c${++w.counter}.${rng.int(0, 1e6)}@example.org`;
}

function eventDay(rng: Rng): string {
  return new Date(Date.UTC(2026, 10, 24) - rng.int(0, 30) * 86_400_000).toISOString().slice(0, 10);
}

function eventMinute(rng: Rng): string {
  return `${eventDay(rng)}T${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`;
}

async function gift(
  local: LocalSide,
  rng: Rng,
  w: WorkloadState,
  donor: string,
  twin?: { amount: number; date: string; method: (typeof METHODS)[number] },
): Promise<string> {
  const day = eventDay(rng);
  const d = await createDonation(local.ctx, {
    accountId: local.accountId,
    contactId: donor,
    donationAmount: twin ? twin.amount : rng.int(100, 500_000) / 100,
    donationDate: twin ? twin.date : rng.chance(0.5) ? day : eventMinute(rng),
    paymentMethod: twin ? twin.method : rng.pick(METHODS),
    campaignId: local.campaignId,
    ...(!twin && rng.chance(0.4) ? { notes: `table ${rng.int(1, 40)}` } : {}),
    ...giftCredits(rng, w, donor),
  });
  w.writes++;
  w.contacts.set(donor, (w.contacts.get(donor) ?? 0) + 1);
  w.donations.push(d.id);
  return d.id;
}

/**
 * A gift's soft credit (another live contact), host (any live contact, the donor too) and
 * sustainer flag, now and then: sync must carry them to HQ as it carries the rest.
 */
function giftCredits(rng: Rng, w: WorkloadState, donor: string) {
  const r = (w.creditRng ??= createRng((rng.seed ^ 0x9e3779b9) >>> 0));
  const live = r.chance(0.15) ? [...w.contacts.keys()].filter((id) => !w.busy.has(id)) : [];
  const others = live.filter((id) => id !== donor);
  return {
    ...(others.length > 0 && r.chance(0.5) ? { onBehalfOfContactId: r.pick(others) } : {}),
    ...(live.length > 0 && r.chance(0.6) ? { facilitatedByContactId: r.pick(live) } : {}),
    ...(r.chance(0.1) ? { isRecurring: true } : {}),
  };
}

/** Twins (or triplets): identical gifts, back to back; a pass may start between them. */
async function twinGifts(local: LocalSide, rng: Rng, w: WorkloadState, donor: string): Promise<string[]> {
  const n = rng.chance(0.3) ? 3 : 2;
  const facts = {
    amount: rng.pick([19.99, 19.99, 20, 50, 100]),
    date: eventMinute(rng),
    method: rng.pick(['cash', 'cash', 'check', 'credit_card'] as const),
  };
  const group: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && rng.chance(0.3)) w.kick?.();
    group.push(await gift(local, rng, w, donor, facts));
  }
  for (const g of group) {
    w.twins.set(g, group);
    tag(w, g, 'twins');
  }
  w.seen.twins++;
  return group;
}

async function hasLink(
  local: LocalSide,
  type: 'contact' | 'donation',
  localId: string,
): Promise<string | null> {
  const r = await local.store.db
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('accountId', '=', local.accountId)
    .where('entityType', '=', type)
    .where('localId', '=', localId)
    .executeTakeFirst();
  return r?.remoteId ?? null;
}

/** Staff rewrite the notes of pushed gift `localId` at HQ (its reference gone); false when it is not at HQ yet. */
export async function staffEdit(
  local: LocalSide,
  rng: Rng,
  w: WorkloadState,
  localId: string,
): Promise<boolean> {
  if (!w.staffEditNotes) return false;
  const hqId = await hasLink(local, 'donation', localId);
  if (!hqId || w.hqNotes.has(hqId)) return false;
  const notes = rng.pick(STAFF_NOTES);
  w.hqNotes.set(hqId, notes);
  await w.staffEditNotes(hqId, notes);
  for (const g of w.twins.get(localId) ?? [localId]) tag(w, g, 'hqEditedNotes');
  w.seen.hqEditedNotes++;
  return true;
}

/** The contacts whose create has an unknown outcome (in flight, or not answered) and no gifts. */
async function unknownCreates(local: LocalSide, w: WorkloadState): Promise<string[]> {
  const rows = await local.store.db
    .selectFrom('syncItems')
    .select('entityId')
    .where('accountId', '=', local.accountId)
    .where('entityType', '=', 'contact')
    .where('state', 'in', ['in_flight', 'unknown'])
    .where('op', '=', 'create')
    .execute();
  return rows.map((r) => r.entityId).filter((id) => w.contacts.get(id) === 0 && !w.busy.has(id));
}

/** One random write (or a few: twins, a donor and their gift; each counts in `w.writes`); returns what it did (for a failing seed's story). */
export async function randomWrite(local: LocalSide, rng: Rng, w: WorkloadState): Promise<string> {
  const ids = [...w.contacts.keys()];
  const kind =
    ids.length === 0
      ? 'create'
      : rng.weighted({
          create: 3,
          edit: 4,
          delete: 1,
          donate: 4,
          twins: 1.2,
          namesake: 0.8,
          household: 0.8,
          freshDonor: 0.8,
          deleteUnknown: 0.6,
          staffEdit: 0.6,
        });
  if (kind === 'create') {
    const id = await newContact(local, rng, w, {
      firstName: rng.pick(FIRST),
      lastName: rng.pick(LAST),
      email: rng.chance(0.6) ? freshEmail(rng, w) : null,
    });
    return `create ${id}`;
  }
  if (kind === 'namesake' || kind === 'household') {
    const [otherId, other] = rng.pick([...w.people.entries()]);
    const person: Person =
      kind === 'namesake'
        ? rng.chance(0.3)
          ? { firstName: plain(other.firstName), lastName: plain(other.lastName), email: freshEmail(rng, w) }
          : {
              firstName: other.firstName,
              lastName: other.lastName,
              email: rng.chance(0.8) ? freshEmail(rng, w) : null,
            }
        : {
            firstName: rng.pick(FIRST.filter((f) => f !== other.firstName)),
            lastName: rng.chance(0.5) ? other.lastName : rng.pick(LAST),
            email: other.email ?? freshEmail(rng, w),
          };
    const id = await withBusy(w, [otherId], async () => {
      // give the household its shared email first
      if (kind === 'household' && !other.email)
        await editContact(local, w, otherId, { primaryEmail: person.email });
      return newContact(local, rng, w, person);
    });
    tag(w, id, 'namesakes');
    tag(w, otherId, 'namesakes');
    w.seen.namesakes++;
    return `${kind} ${id} of ${otherId}`;
  }
  if (kind === 'freshDonor') {
    const donor = await newContact(local, rng, w, {
      firstName: rng.pick(FIRST),
      lastName: rng.pick(LAST),
      email: rng.chance(0.5) ? freshEmail(rng, w) : null,
    });
    w.busy.add(donor);
    try {
      if (rng.chance(0.6)) w.kick?.(); // the donor's create goes out while the gift is typed
      const gifts = rng.chance(0.3)
        ? await twinGifts(local, rng, w, donor)
        : [await gift(local, rng, w, donor)];
      tag(w, donor, 'giftToNewContact');
      for (const g of gifts) tag(w, g, 'giftToNewContact');
      w.seen.giftToNewContact++;
      return `freshDonor ${donor} gifts ${gifts.join(',')}`;
    } finally {
      w.busy.delete(donor);
    }
  }
  if (kind === 'deleteUnknown') {
    const unknown = await unknownCreates(local, w);
    if (unknown.length > 0) {
      const id = rng.pick(unknown);
      w.contacts.delete(id);
      w.people.delete(id);
      tag(w, id, 'deleteUnknown');
      w.seen.deleteUnknown++;
      await removeContact(local, w, id);
      return `deleteUnknown ${id}`;
    }
  }
  if (kind === 'staffEdit' && w.donations.length > 0) {
    const g = rng.pick(w.donations);
    if (await staffEdit(local, rng, w, g)) return `staffEdit ${g}`;
  }
  const id = rng.pick([...w.contacts.keys()]);
  w.busy.add(id);
  try {
    if (kind === 'twins') return `twins ${(await twinGifts(local, rng, w, id)).join(',')} for ${id}`;
    if (kind === 'delete' && (w.contacts.get(id) ?? 0) === 0) {
      // A contact with gifts is not deleted here: deleting it at HQ would delete its gifts there,
      // which the engine rightly asks a person about first.
      w.contacts.delete(id);
      w.people.delete(id);
      await removeContact(local, w, id);
      return `delete ${id}`;
    }
    if (kind === 'donate') return `donate ${await gift(local, rng, w, id)} for ${id}`;
    await editContact(local, w, id, contactEdit(rng, w));
    return `edit ${id}`;
  } finally {
    w.busy.delete(id);
  }
}

/**
 * After the random writes: whatever case this seed has not produced yet is produced now (the
 * rule's hooks are forced for the next contact create on the wire), so that every seed holds
 * every case.
 */
export async function completeCases(local: LocalSide, rng: Rng, w: WorkloadState): Promise<void> {
  if (w.contacts.size === 0)
    await newContact(local, rng, w, {
      firstName: rng.pick(FIRST),
      lastName: rng.pick(LAST),
      email: freshEmail(rng, w),
    });
  if (w.seen.twins === 0) {
    const donor = rng.pick([...w.contacts.keys()]);
    await withBusy(w, [donor], () => twinGifts(local, rng, w, donor));
  }
  if (w.seen.namesakes === 0 || w.seen.giftToNewContact === 0) {
    const [otherId, other] = rng.pick([...w.people.entries()]);
    const id = await newContact(local, rng, w, {
      firstName: other.firstName,
      lastName: other.lastName,
      email: freshEmail(rng, w),
    });
    tag(w, id, 'namesakes');
    tag(w, otherId, 'namesakes');
    w.seen.namesakes++;
    const g = await withBusy(w, [id], () => gift(local, rng, w, id));
    tag(w, id, 'giftToNewContact');
    tag(w, g, 'giftToNewContact');
    w.seen.giftToNewContact++;
  }
  if (w.seen.racingEdit === 0 || w.seen.deleteUnknown === 0) {
    w.forceRace = w.seen.racingEdit === 0;
    w.forceDelete = w.seen.deleteUnknown === 0;
    if (w.forceRace)
      await newContact(local, rng, w, {
        firstName: rng.pick(FIRST),
        lastName: rng.pick(LAST),
        email: freshEmail(rng, w),
      });
    if (w.forceDelete)
      await newContact(local, rng, w, { firstName: rng.pick(FIRST), lastName: rng.pick(LAST), email: null });
  }
}

/** Staff edit a pushed gift's notes at HQ, if this seed has not had one yet (call once gifts have reached HQ). */
export async function completeStaffEdit(local: LocalSide, rng: Rng, w: WorkloadState): Promise<void> {
  if (w.seen.hqEditedNotes > 0) return;
  for (const g of rng.shuffle([...w.donations])) if (await staffEdit(local, rng, w, g)) return;
}
