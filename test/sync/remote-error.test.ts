/** Both error shapes a remote may answer with, and the junk a proxy may put in between, read alike. */
import { describe, expect, it } from 'vitest';
import { parseRemoteError, type RemoteError } from '../../electron/sync/net/error-body.ts';

describe('parseRemoteError', () => {
  it.each<[string, number, unknown, string, RemoteError]>([
    [
      'GiftDesk / hosted service shape with details',
      400,
      {
        statusCode: 400,
        error: 'Bad Request',
        code: 'validation_failed',
        message: 'customFields.Shirt size: "XXL" is not an option',
        details: [{ field: 'customFields.Shirt size', issue: 'is not an option' }],
      },
      '',
      {
        message: 'customFields.Shirt size: "XXL" is not an option',
        code: 'validation_failed',
        details: [{ field: 'customFields.Shirt size', issue: 'is not an option' }],
      },
    ],
    [
      'hosted shape without details or code',
      404,
      { statusCode: 404, error: 'Not Found', message: 'Contact cnt_1 not found' },
      '',
      { message: 'Contact cnt_1 not found' },
    ],
    [
      'hosted shape with only the reason',
      404,
      { statusCode: 404, error: 'Not Found' },
      '',
      { message: 'Not Found' },
    ],
    [
      'envelope shape',
      400,
      {
        error: {
          code: 'invalid_custom_field',
          message: 'Unknown custom field "Colour"',
          details: [{ field: 'customFields.Colour', issue: 'no such field' }],
        },
      },
      '',
      {
        message: 'Unknown custom field "Colour"',
        code: 'invalid_custom_field',
        details: [{ field: 'customFields.Colour', issue: 'no such field' }],
      },
    ],
    [
      'envelope with details named otherwise',
      422,
      { error: { errors: [{ path: ['donationAmount'], message: 'must be positive' }] } },
      '',
      { message: 'must be positive', details: [{ field: 'donationAmount', issue: 'must be positive' }] },
    ],
    [
      'envelope with only a code',
      403,
      { error: { code: 'forbidden' } },
      '',
      { message: 'forbidden', code: 'forbidden' },
    ],
    [
      'an HTML page from a gateway',
      502,
      '<html><body><h1>502 Bad Gateway</h1></body></html>',
      '<html><body><h1>502 Bad Gateway</h1></body></html>',
      { message: 'The remote answered 502 Bad Gateway: 502 Bad Gateway' },
    ],
    ['no body', 503, undefined, '', { message: 'The remote answered 503 Service Unavailable' }],
    ['an unusual status with no body', 418, undefined, '', { message: 'The remote answered 418' }],
    ['a JSON array', 400, [1, 2], '', { message: 'The remote answered 400 Bad Request' }],
  ])('%s', (_name, status, body, text, want) => {
    expect(parseRemoteError(status, body, text)).toEqual(want);
  });
});
