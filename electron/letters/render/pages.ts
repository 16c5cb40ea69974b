/**
 * What the renderer draws: one letter per page object (a long letter flows onto more
 * sheets), each a list of blocks of plain text. Plain data, so it crosses to the render
 * worker as it is.
 */
export type LetterBlock =
  | { kind: 'letterhead'; lines: string[] }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'table'; columns: string[]; rows: string[][]; footer: string[] | null };

export interface LetterPage {
  blocks: LetterBlock[];
  /** The file this letter gets alone when a run writes one PDF per donor. */
  fileName?: string;
}

/** A letter as lines of plain text: what the bare render draws, and what a reader reads. */
export function letterPageText(page: LetterPage): string[] {
  const lines: string[] = [];
  for (const b of page.blocks) {
    if (b.kind === 'letterhead') lines.push(...b.lines, '');
    else if (b.kind === 'table') {
      for (const row of [b.columns, ...b.rows, ...(b.footer ? [b.footer] : [])]) lines.push(row.join('   '));
      lines.push('');
    } else lines.push(...b.text.split('\n'), '');
  }
  return lines;
}
