/**
 * Contacts: create, read, update (C1–C5), delete with everything attached, list and search.
 * Each concern is its own module; this one gathers what the routes, the sync engine, the
 * tests and the benches import.
 *
 * - contact-records.ts: a contact's rows (checks, normalisation, a new contact prepared and inserted)
 * - contact-create.ts: create, once per sync reference
 * - contact-read.ts: one contact (its row, its lock, the full record)
 * - contact-update.ts: update (C1–C5)
 * - contact-delete.ts: delete with everything attached
 * - contact-list.ts: the list and its search (contact-search.ts)
 */
export { createContact, createContactOnce } from './contact-create.ts';
export { deleteContact } from './contact-delete.ts';
export { listContacts } from './contact-list.ts';
export { contactNotFound, getContact, getContactRow, lockContact } from './contact-read.ts';
export { type NewContactRecord, insertContactRecords, prepareContact } from './contact-records.ts';
export { updateContact } from './contact-update.ts';
