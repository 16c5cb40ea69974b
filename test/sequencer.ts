/**
 * The order test files start in: the longest first, so that the last minutes of a run are not
 * one slow file while the other workers sit idle. vitest's own order does this only with its
 * cache of the last run's durations; a fresh clone (CI) has none and falls back to the largest
 * files first, which put the exactly-once suites (small files, minutes each) at the very end.
 * Here a file's duration is vitest's cached one when there is one, else the one in
 * test/durations.json for this engine (written by scripts/test-durations.mjs from a whole
 * run's reports), else it is taken for a new file and started first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

type Durations = Record<'sqlite' | 'postgres', Record<string, number>>;

function committed(root: string): Record<string, number> {
  try {
    const all = JSON.parse(fs.readFileSync(path.join(root, 'test', 'durations.json'), 'utf8')) as Durations;
    return all[process.env.GIFTDESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'] ?? {};
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const known = committed(root);
    const seconds = (spec: TestSpecification): number => {
      const rel = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${rel}`);
      if (cached) return cached.duration / 1000;
      return known[rel] ?? Number.POSITIVE_INFINITY;
    };
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        seconds(b) - seconds(a) ||
        (a.moduleId < b.moduleId ? -1 : 1),
    );
  }
}
