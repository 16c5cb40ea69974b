/**
 * What a person sees of a record without GiftDesk's sync references, and what an edit sends
 * back: the reference kept, so a correction or a tag change never loses the record's identity.
 */
import { describe, expect, it } from 'vitest';
import {
  donationReferenceOf,
  notesForPeople,
  notesKeepingReference,
  tagsForPeople,
  tagsKeepingReferences,
} from '#shared/sync-reference.ts';

describe('notes and tags for people', () => {
  it('shows notes without the reference line, and puts it back after an edit', () => {
    const stored = 'Paid at the door\ngd:don_01ABC';
    expect(notesForPeople(stored)).toBe('Paid at the door');
    expect(notesForPeople('gd:don_01ABC')).toBeNull();
    expect(notesForPeople('see gd:don_X above, not mine')).toBe('see gd:don_X above, not mine');
    expect(notesKeepingReference(stored, 'Paid at the door')).toBe(stored);
    expect(notesKeepingReference(stored, 'Check 1042')).toBe('Check 1042\ngd:don_01ABC');
    expect(notesKeepingReference(stored, null)).toBe('gd:don_01ABC');
    expect(donationReferenceOf(notesKeepingReference(stored, 'anything'))).toBe('gd:don_01ABC');
    expect(notesKeepingReference('typed here', 'changed')).toBe('changed');
  });

  it('shows tags without reference tags, and an edited donor keeps them', () => {
    const tags = ['VIP', 'gd:cnt_01A', 'Board'];
    expect(tagsForPeople(tags)).toEqual(['VIP', 'Board']);
    expect(tagsKeepingReferences(tags, ['VIP'])).toEqual(['VIP', 'gd:cnt_01A']);
  });
});
