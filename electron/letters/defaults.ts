/**
 * The wording a letter has until the account edits it: a heading and a body per kind of
 * document (receipt, thank-you, year-end) for each kind of organisation, and the merge fields
 * a template may use. A charity's letters carry what a written acknowledgment of a gift needs
 * (the organisation, the amount, the date, and that no goods or services were given in
 * return — edit it when some were); a political committee's say contributions are not tax
 * deductible.
 */
import type { LetterKind, OrgKind } from '#shared/schemas/letters.ts';

export interface TemplateText {
  heading: string;
  body: string;
}

export const MERGE_FIELDS: readonly { name: string; description: string }[] = [
  { name: 'date', description: "the letter's date (the day it is printed)" },
  { name: 'donor.name', description: "the donor's full name" },
  {
    name: 'donor.salutation',
    description: 'how the donor is greeted ("Dear …"): their salutation, else first name',
  },
  { name: 'donor.address', description: "the donor's primary address, on several lines" },
  { name: 'gifts', description: 'a table of the gifts: date, campaign, payment and amount, with the total' },
  { name: 'total', description: 'the total of the gifts, e.g. $1,250.00' },
  { name: 'gift.count', description: 'how many gifts the letter covers' },
  { name: 'gift.amount', description: 'the amount of the first gift (a receipt has one)' },
  { name: 'gift.date', description: 'the date of the first gift (a receipt has one)' },
  { name: 'period', description: 'the period the letter covers (the dates chosen, or the year)' },
  { name: 'year', description: "the statement's calendar year" },
  { name: 'campaign', description: 'the campaigns of the gifts' },
  { name: 'organization.name', description: "the organisation's name (Settings)" },
  { name: 'organization.address', description: "the organisation's address (Settings)" },
  { name: 'signer.name', description: 'who signs the letter (Settings)' },
  { name: 'signer.title', description: "the signer's title (Settings)" },
];

const ADDRESS_BLOCK = '{{date}}\n\n{{donor.name}}\n{{donor.address}}';
const SIGNATURE = 'With gratitude,\n\n{{signer.name}}\n{{signer.title}}\n{{organization.name}}';

const CHARITY_NO_GOODS =
  'No goods or services were provided in return for {{this}}. Please keep this letter for your tax records.';
const POLITICAL_NOT_DEDUCTIBLE =
  'Contributions to {{organization.name}} are not tax deductible for federal income tax purposes.';

function body(paragraphs: string[]): string {
  return paragraphs.join('\n\n');
}

function charity(kind: LetterKind): TemplateText {
  switch (kind) {
    case 'receipt':
      return {
        heading: 'Receipt for your gift',
        body: body([
          ADDRESS_BLOCK,
          'Dear {{donor.salutation}},',
          'Thank you for your gift of {{gift.amount}} to {{organization.name}} on {{gift.date}}.',
          '{{gifts}}',
          CHARITY_NO_GOODS.replace('{{this}}', 'this contribution'),
          SIGNATURE,
        ]),
      };
    case 'thank-you':
      return {
        heading: 'Thank you',
        body: body([
          ADDRESS_BLOCK,
          'Dear {{donor.salutation}},',
          'Thank you for your generous support of {{organization.name}}. Your gifts, listed below, make our work possible.',
          '{{gifts}}',
          CHARITY_NO_GOODS.replace('{{this}}', 'these contributions'),
          SIGNATURE,
        ]),
      };
    case 'year-end':
      return {
        heading: 'Your giving in {{year}}',
        body: body([
          ADDRESS_BLOCK,
          'Dear {{donor.salutation}},',
          'Thank you for supporting {{organization.name}} in {{year}}. This statement lists every gift we received from you that year, {{total}} in all.',
          '{{gifts}}',
          CHARITY_NO_GOODS.replace('{{this}}', 'these contributions'),
          SIGNATURE,
        ]),
      };
  }
}

function political(kind: LetterKind): TemplateText {
  switch (kind) {
    case 'receipt':
      return {
        heading: 'Receipt for your contribution',
        body: body([
          ADDRESS_BLOCK,
          'Dear {{donor.salutation}},',
          'Thank you for your contribution of {{gift.amount}} to {{organization.name}} on {{gift.date}}.',
          '{{gifts}}',
          POLITICAL_NOT_DEDUCTIBLE,
          SIGNATURE,
        ]),
      };
    case 'thank-you':
      return {
        heading: 'Thank you',
        body: body([
          ADDRESS_BLOCK,
          'Dear {{donor.salutation}},',
          'Thank you for standing with {{organization.name}}. Your contributions, listed below, keep this campaign going.',
          '{{gifts}}',
          POLITICAL_NOT_DEDUCTIBLE,
          SIGNATURE,
        ]),
      };
    case 'year-end':
      return {
        heading: 'Your contributions in {{year}}',
        body: body([
          ADDRESS_BLOCK,
          'Dear {{donor.salutation}},',
          'This statement lists every contribution {{organization.name}} received from you in {{year}}, {{total}} in all. Thank you.',
          '{{gifts}}',
          POLITICAL_NOT_DEDUCTIBLE,
          SIGNATURE,
        ]),
      };
  }
}

/** The default wording of a kind of document for a kind of organisation. */
export function defaultTemplate(orgKind: OrgKind, kind: LetterKind): TemplateText {
  return orgKind === 'political' ? political(kind) : charity(kind);
}
