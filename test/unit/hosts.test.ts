/**
 * The DNS-rebinding defence: only loopback Host headers pass, and a loopback bind keeps it on.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackBind, isLoopbackHost } from '../../electron/server/hosts.ts';

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.1:4870',
    '127.1.2.3:80',
    'localhost',
    'LOCALHOST:4870',
    ' localhost:4870 ',
    'app.localhost:4870',
    '[::1]',
    '[::1]:4870',
  ])('accepts %j', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'example.com',
    'evil.example:4870',
    'localhost.evil.example',
    'localhost.evil.example:4870',
    '127.0.0.1.nip.io',
    '127.0.0.1.nip.io:4870',
    '0.0.0.0:4870',
    '192.168.1.10:4870',
    '10.0.0.1',
    '[::]:4870',
    '[::1',
    '[::1]evil.example',
    '[fe80::1]:4870',
    'localhost:4870@evil.example',
    'evil.example:80:localhost',
    '::1', // an IPv6 Host must be bracketed
  ])('refuses %j', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('isLoopbackBind', () => {
  it.each(['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2'])('keeps %j on this machine', (a) => {
    expect(isLoopbackBind(a)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '::ffff:192.168.1.10'])(
    'opens %j to the network',
    (a) => {
      expect(isLoopbackBind(a)).toBe(false);
    },
  );
});
