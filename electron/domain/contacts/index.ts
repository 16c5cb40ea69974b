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
 * - views.ts: the app's reads (summaries with totals, a contact's gifts, what a delete takes)
 * - custom-fields.ts: custom field definitions, and their values on a contact
 *
 * This file is the folder's surface: the server, the CLI and the shell import contacts from
 * here and nowhere else in the folder (eslint.config.js).
 */
export { type ContactWriteOptions, createContact, createContactOnce } from './create.ts';
export { deleteContact } from './delete.ts';
export { retireContactReference } from './retire.ts';
export { contactHistory } from './history.ts';
export { listContacts } from './list.ts';
export { contactNotFound, getContact, getContactRow, lockContact, readContacts } from './read.ts';
export { type NewContactRecord, insertContactRecords, prepareContact } from './records.ts';
export { updateContact } from './update.ts';
export {
  addCustomFieldOption,
  archiveCustomField,
  createCustomField,
  listCustomFields,
  retireCustomFieldOption,
} from './custom-fields.ts';
export { contactDeletePreview, listContactDonations, listContactSummaries } from './views.ts';
