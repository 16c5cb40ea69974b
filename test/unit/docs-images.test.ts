/**
 * The guides' pictures: every image README.md and docs/*.md show is in the repository, and
 * every screenshot the browser tests write for the guides (DOC_IMAGES, written to docs/images
 * with GIFTDESK_DOCS_IMAGES=1) is shown by a guide — so a renamed screen or a dropped
 * screenshot cannot leave a guide pointing at nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_IMAGES } from '../browser/doc-images.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const guides = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
];
const shown = guides.flatMap((g) =>
  [...fs.readFileSync(path.join(ROOT, g), 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({
    guide: g,
    file: path.normalize(path.join(path.dirname(g), m[1]!)),
  })),
);

describe('the guides and their screenshots', () => {
  it('show only images that are in the repository', () => {
    expect(shown.length).toBeGreaterThan(5);
    for (const { guide, file } of shown)
      expect(fs.existsSync(path.join(ROOT, file)), `${guide} shows ${file}`).toBe(true);
  });

  it('show every screenshot the browser tests write for them, and docs/images holds nothing else', () => {
    const files = new Set(shown.map((s) => s.file));
    for (const name of DOC_IMAGES)
      expect(files.has(path.join('docs', 'images', `${name}.png`)), `${name} is shown by a guide`).toBe(true);
    expect(fs.readdirSync(path.join(ROOT, 'docs', 'images')).sort()).toEqual(
      DOC_IMAGES.map((n) => `${n}.png`).sort(),
    );
  });
});
