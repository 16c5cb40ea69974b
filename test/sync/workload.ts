/**
 * Random local writes, as a volunteer and the local API make them: contacts created, edited
 * (scalar fields, tags, a phone collection, a custom field) and deleted; gifts entered for
 * existing donors. All through the domain, on the local SQLite file, so every write lands in
 * the outbox exactly as in the app. Deterministic for a seed.
 */
import { createContact, deleteContact, updateContact } from '../../electron/domain/contacts.ts';
import { createDonation } from '../../electron/domain/donations.ts';
import type { ContactUpdateBody } from '../../shared/schemas/contacts.ts';
import { CUSTOM_FIELD, type LocalSide } from './rig.ts';
import type { Rng } from './random.ts';

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Frances', 'Tony', 'Radia', 'Niklaus', 'Zoë', 'José'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson', 'Allen', 'Hoare', 'Perlman', 'Wirth', 'Ørsted', 'Núñez'];
const ORGS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', null];
const TAGS = ['donor', 'volunteer', 'board', 'major', 'lapsed', 'vip'];
const METHODS = ['cash', 'check', 'credit_card', 'ach', 'venmo', 'in_kind'] as const;

export interface WorkloadState {
  /** Live local contacts and how many gifts each has. */
  contacts: Map<string, number>;
  donations: string[];
  writes: number;
  counter: number;
}

export function newWorkload(): WorkloadState {
  return { contacts: new Map(), donations: [], writes: 0, counter: 0 };
}

function contactEdit(rng: Rng, w: WorkloadState): ContactUpdateBody {
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
        body.phoneNumbers = Array.from({ length: rng.int(0, 2) }, (_, k) => ({ phoneNumber: `+1 555 01${rng.int(10, 99)}`, phoneType: k === 0 ? 'mobile' : 'home', isPrimary: k === 0 }));
        break;
      case 7:
        body.customFields = { [CUSTOM_FIELD]: rng.chance(0.25) ? null : rng.pick(['S', 'M', 'L', 'XL']) };
        break;
    }
  }
  return body;
}

/** One random write; returns what it did (for a failing seed's story). */
export async function randomWrite(local: LocalSide, rng: Rng, w: WorkloadState): Promise<string> {
  const ids = [...w.contacts.keys()];
  const kind = ids.length === 0 ? 'create' : rng.weighted({ create: 3, edit: 4, delete: 1, donate: 4 });
  w.writes++;
  if (kind === 'create') {
    const c = await createContact(local.ctx, {
      accountId: local.accountId,
      firstName: rng.pick(FIRST),
      lastName: rng.pick(LAST),
      ...(rng.chance(0.6) ? { primaryEmail: `c${++w.counter}.${rng.int(0, 1e6)}@example.org` } : {}),
      ...(rng.chance(0.4) ? { tags: [rng.pick(TAGS)] } : {}),
      ...(rng.chance(0.3) ? { customFields: { [CUSTOM_FIELD]: rng.pick(['S', 'M', 'L']) } } : {}),
    });
    w.contacts.set(c.id, 0);
    return `create ${c.id}`;
  }
  const id = rng.pick(ids);
  if (kind === 'edit') {
    await updateContact(local.ctx, local.accountId, id, contactEdit(rng, w));
    return `edit ${id}`;
  }
  if (kind === 'delete') {
    // A contact with gifts is not deleted here: deleting it at HQ would delete its gifts there,
    // which the engine rightly asks a person about first.
    if ((w.contacts.get(id) ?? 0) > 0) {
      await updateContact(local.ctx, local.accountId, id, contactEdit(rng, w));
      return `edit ${id}`;
    }
    await deleteContact(local.ctx, local.accountId, id);
    w.contacts.delete(id);
    return `delete ${id}`;
  }
  const day = new Date(Date.UTC(2026, 10, 24) - rng.int(0, 30) * 86_400_000).toISOString().slice(0, 10);
  const d = await createDonation(local.ctx, {
    accountId: local.accountId,
    contactId: id,
    donationAmount: rng.int(100, 500_000) / 100,
    donationDate: rng.chance(0.5) ? day : `${day}T${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`,
    paymentMethod: rng.pick(METHODS),
    campaignId: local.campaignId,
    ...(rng.chance(0.4) ? { notes: `table ${rng.int(1, 40)}` } : {}),
  });
  w.contacts.set(id, (w.contacts.get(id) ?? 0) + 1);
  w.donations.push(d.id);
  return `donate ${d.id} for ${id}`;
}
