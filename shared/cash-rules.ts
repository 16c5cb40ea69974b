/**
 * The cash rule gift entry warns about and Review lists: a cash gift over $100 is over the
 * limit for cash (take a check or card for the rest). One amount and one sentence, so the
 * warning while typing and the Review list say the same.
 */
export const CASH_LIMIT_CENTS = 10_000;

export const CASH_OVER_WARNING =
  'Cash over $100: the limit for cash gifts is $100; take a check or card for the rest.';
