/**
 * Payment methods read as people write them, in one wording everywhere: gift entry and the
 * deposit slip, a donor's page, and a letter's gifts table ("ACH", not "Ach" on one screen and
 * "Bank transfer" on the receipt; "PayPal", "In kind").
 */
import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD_LABEL, PAYMENT_METHODS, paymentMethodLabel } from '#shared/enums.ts';
import { paymentLabel } from '../../electron/letters/index.ts';

describe('payment method wording', () => {
  it('names the methods as people do', () => {
    expect(paymentMethodLabel('ach')).toBe('ACH');
    expect(paymentMethodLabel('paypal')).toBe('PayPal');
    expect(paymentMethodLabel('credit_card')).toBe('Credit card');
    expect(paymentMethodLabel('in_kind')).toBe('In kind');
  });

  it('is the same on a letter as on the screens, for every method', () => {
    for (const m of PAYMENT_METHODS) {
      expect(paymentLabel(m)).toBe(PAYMENT_METHOD_LABEL[m]); // gift entry's METHOD_LABEL is this table
      expect(paymentLabel(m)).not.toMatch(/_/);
    }
  });

  it('says a method it does not know (from a newer HQ) as it is, spaced', () => {
    expect(paymentMethodLabel('stock_transfer')).toBe('stock transfer');
  });
});
