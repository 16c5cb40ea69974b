/**
 * Contacts: the list (#/contacts), a contact (#/contacts/<id>), the create form
 * (#/contacts/new) and the edit form (#/contacts/<id>/edit). Moving between them puts the
 * focus where the work is: the search box, the first field of a form, the contact's name.
 */
import { useLayoutEffect } from 'react';
import type { Route } from '../../router.ts';
import { ContactFormScreen } from './ContactForm.tsx';
import { ContactList } from './ContactList.tsx';
import { ContactPage } from './ContactPage.tsx';
import './contact-list.css';
import './contacts.css';

export function ContactsScreen({ route }: { route: Route }) {
  const [first = '', second = ''] = route.rest;
  const view = first === '' ? 'list' : first === 'new' ? 'new' : second === 'edit' ? 'edit' : 'contact';

  // The shell focuses a screen when the screen changes; within Contacts this does it, as soon
  // as the view is in the DOM (not a frame later: by then the user may have typed on, or
  // gone down into the list, and the focus would be pulled back).
  const where = route.rest.join('/');
  useLayoutEffect(() => {
    const main = document.getElementById('main');
    const target =
      main?.querySelector<HTMLElement>('[data-autofocus]') ??
      main?.querySelector<HTMLElement>('#screen-title');
    if (target && !target.contains(document.activeElement)) target.focus();
  }, [where]);

  switch (view) {
    case 'list':
      return <ContactList />;
    case 'new':
      return <ContactFormScreen key="new" id={null} />;
    case 'edit':
      return <ContactFormScreen key={`edit-${first}`} id={first} />;
    default:
      return <ContactPage key={first} id={first} />;
  }
}
