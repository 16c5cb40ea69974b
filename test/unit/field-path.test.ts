/**
 * A validation error names the field the way a caller writes it.
 */
import { describe, expect, it } from 'vitest';
import { errorBody, fieldPath } from '../../electron/server/errors.ts';

describe('fieldPath', () => {
  it.each([
    ['/donationAmount', 'donationAmount'],
    ['/phoneNumbers/0/phoneNumber', 'phoneNumbers[0].phoneNumber'],
    ['/limits/perElection', 'limits.perElection'],
    ['/tags/12', 'tags[12]'],
    ['/a/1/2/b', 'a[1][2].b'],
    ['/customFields/Shirt Size', 'customFields.Shirt Size'],
    ['/0', '[0]'],
    ['/', '(body)'],
    ['', '(body)'],
  ])('%j → %j', (pointer, field) => {
    expect(fieldPath(pointer)).toBe(field);
  });
});

describe('errorBody', () => {
  it('has the documented shape, details only when there are some', () => {
    expect(errorBody(404, 'contact_not_found', 'Contact x was not found')).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'contact_not_found',
      message: 'Contact x was not found',
    });
    expect(errorBody(400, 'validation_failed', 'm', [{ field: 'a', issue: 'b' }])).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      code: 'validation_failed',
      message: 'm',
      details: [{ field: 'a', issue: 'b' }],
    });
    expect(errorBody(400, 'x', 'm', [])).not.toHaveProperty('details');
  });
});
