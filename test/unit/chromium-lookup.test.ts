// The order in which the browser tests and `bench` part `ui` find Chromium
// (test/browser/chromium.ts): GIFTDESK_CHROMIUM, then the npm build where the platform has
// one, then the system's /usr/bin/chromium; and the message a contributor reads when none is there.
import { describe, expect, it } from 'vitest';
import { chooseChromium, SYSTEM_CHROMIUM, type ChromiumLookup } from '../browser/chromium.ts';

const machine = (over: Partial<ChromiumLookup> = {}): ChromiumLookup => ({
  env: {},
  platform: 'linux',
  arch: 'x64',
  npmBuildInstalled: true,
  exists: (f) => f === SYSTEM_CHROMIUM,
  ...over,
});

describe('which Chromium runs the browser tests', () => {
  it('GIFTDESK_CHROMIUM first, even where the npm build and the system one are both there', () => {
    expect(chooseChromium(machine({ env: { GIFTDESK_CHROMIUM: '/opt/chrome/chrome' } }))).toEqual({
      source: 'GIFTDESK_CHROMIUM',
      path: '/opt/chrome/chrome',
    });
  });

  it('then the npm build on Linux x64, before /usr/bin/chromium', () => {
    expect(chooseChromium(machine())).toEqual({ source: 'npm' });
    expect(chooseChromium(machine({ env: { GIFTDESK_CHROMIUM: '' } }))).toEqual({ source: 'npm' });
  });

  it('the system one where the package has no build (arm64, macOS) or is not installed', () => {
    expect(chooseChromium(machine({ arch: 'arm64' }))).toEqual({ source: 'system', path: SYSTEM_CHROMIUM });
    expect(chooseChromium(machine({ platform: 'darwin', arch: 'x64' }))).toEqual({
      source: 'system',
      path: SYSTEM_CHROMIUM,
    });
    expect(chooseChromium(machine({ npmBuildInstalled: false }))).toEqual({
      source: 'system',
      path: SYSTEM_CHROMIUM,
    });
  });

  it('none at all: says what was looked for and what to do', () => {
    const r = chooseChromium(machine({ arch: 'arm64', exists: () => false }));
    expect(r.source).toBeNull();
    expect('why' in r && r.why).toMatch(
      /GIFTDESK_CHROMIUM is not set.*no build for linux-arm64.*\/usr\/bin\/chromium does not exist/,
    );
  });
});
