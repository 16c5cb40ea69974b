/**
 * Contacts: create, read, update (C1–C5), delete with everything attached, list and search.
 * Each concern is its own module; this one gathers what the routes, the sync engine, the
 * tests and the benches import.
 *
 * - records.ts: a contact's rows (checks, normalisation, a new contact prepared and inserted)
 * - create.ts: create, once per sync reference
 * - read.ts: one contact (its row, its lock, the full record)
 * - update.ts: update (C1–C5)
 * - delete.ts: delete with everything attached
 * - list.ts: the list and its search (search.ts)
 */
export { createContact, createContactOnce } from './create.ts';
export { deleteContact } from './delete.ts';
export { listContacts } from './list.ts';
export { contactNotFound, getContact, getContactRow, lockContact } from './read.ts';
export { type NewContactRecord, insertContactRecords, prepareContact } from './records.ts';
export { updateContact } from './update.ts';
