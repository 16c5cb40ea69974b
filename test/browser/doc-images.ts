/**
 * The screenshots the guides in docs/ show (docs/images/<name>.png). The browser tests write
 * every screenshot to test-artifacts/; with GIFTDESK_DOCS_IMAGES=1 these are also written to
 * docs/images/, so the guides show the app as the tests last saw it (test/unit/docs-images.test.ts
 * checks each is in the repository and shown by a guide).
 */
export const DOC_IMAGES = [
  'layout-gift-entry-1280x800',
  'gift-entry-method-changed',
  'layout-correct-gift-1280x800',
  'layout-contacts-1280x800',
  'layout-review-1280x800',
  'layout-dashboard-1280x800',
  'layout-settings-1280x800',
  'event-host',
  'event-host-addresses',
  'event-join',
  'event-station',
  'event-board',
  'event-close-out',
  'event-evening-limit-at-station',
  'event-evening-station-corrects',
  'event-evening-close-out-after-restart',
  'event-evening-revoked-entry',
  'deposit-summary-counted',
  'gift-entry-receipt',
  'letters-run-ready',
  'letters-mark-sent',
  'letters-nothing-waiting',
  'letters-settings',
  'letters-org-kind-question',
  'letters-one-donor',
  'people-list',
  'people-link-shown-once',
] as const;
