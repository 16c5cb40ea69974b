/**
 * The change signal (electron/db/change-signal.ts): a write this server noted is published for
 * the other servers on the database, one heard from them is not published again; both count for
 * every open window but the writing key's own, and both call whoever waits (the feed's long polls).
 */
import { describe, expect, it } from 'vitest';
import { createChangeSignal } from '../../electron/db/change-signal.ts';

describe('the change signal', () => {
  it('publishes what it notes, not what it heard, and counts both', () => {
    const published: Array<{ from: string; by: string | null }> = [];
    const s = createChangeSignal({ publish: (n) => published.push(n) });
    const calls: string[] = [];
    const stop = s.subscribe(() => calls.push('woken'));
    s.note('gdk_robert_brown_1');
    s.heard('gdk_robert_brown_2'); // a namesake's desk, through the other server
    expect(published).toEqual([{ from: s.instance, by: 'gdk_robert_brown_1' }]);
    expect(calls).toEqual(['woken', 'woken']);
    expect(s.versionFor('gdk_robert_brown_1')).toBe(1);
    expect(s.versionFor('gdk_robert_brown_2')).toBe(1);
    expect(s.versionFor('gdk_lukasz_zolc')).toBe(2);
    // The listening connection came back: everyone reads again, the writing keys included.
    s.heard(null);
    expect(s.versionFor('gdk_robert_brown_1')).toBe(2);
    stop();
    s.note(null);
    expect(calls).toHaveLength(3);
  });
});
