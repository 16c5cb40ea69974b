/**
 * One event, one ledger: whatever a station shows about the event equals what the hub shows.
 *
 * For each seed (GIFTDESK_CONVERGENCE_SEEDS, default "1,2"), a hub and three stations — each its
 * own process on its own SQLite folder — take a seeded run of operations at random ends
 * (convergence-run.ts: donors and namesakes, twin $19.99 cash gifts, credit-to and raised-by,
 * sustainers, voids and corrections at the hub and at a station, donor edits with addresses,
 * phones, emails, tags and custom fields, thank-you marks, elections and the default election,
 * letter settings, flag reviews), with kill -9 of the hub and of stations at random moments.
 * Once quiet, every station's answers are compared with the hub's: each donor's page, gift list
 * and limit check for every donation account, the board's stats (both bases, today and all
 * time), the flags, the hosts' report, the letters preview's counts and the letter settings.
 *
 * A failure prints the seed; `node --import tsx test/hub/convergence-run.ts --seed N` replays it,
 * and `node scripts/convergence-soak.mjs --seeds 200 --parallel 2` runs many.
 */
import { describe, expect, it } from 'vitest';
import { runSeed } from './convergence-run.ts';

const SEEDS = (process.env.GIFTDESK_CONVERGENCE_SEEDS ?? '1,2')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n));
const OPS = Number(process.env.GIFTDESK_CONVERGENCE_OPS ?? 30);

describe('one event, one ledger: a station answers as the hub does', () => {
  for (const seed of SEEDS)
    it(`seed ${seed}: every station's reads equal the hub's once the event is quiet`, async () => {
      // Quiet is waited for by polling; the long bound only ends a run that never goes quiet.
      const r = await runSeed({ seed, ops: OPS, quietTimeoutMs: 540_000 });
      const refused = Object.entries(r.refusals).map(([k, n]) => `  ${k} ×${n}`);
      const report = [
        `seed ${seed} (replay: node --import tsx test/hub/convergence-run.ts --seed ${seed} --ops ${OPS})`,
        `operations: ${JSON.stringify(r.ops)}`,
        ...(refused.length ? ['refused:', ...refused] : []),
        ...(r.quiet ? [] : ['the event never went quiet:', ...r.notQuiet.map((w) => `  ${w}`)]),
        ...r.failures,
        ...(r.diffs.length
          ? [
              'fields that differ, by read:',
              ...Object.entries(r.divergent).map(([read, fields]) => `  ${read}: ${fields.join(', ')}`),
              `${r.diffs.length} reads differ:`,
              ...r.diffs,
            ]
          : []),
      ].join('\n');
      // One assertion whose message is the report (the seed, what was refused, what differs).
      expect(r.failures.length === 0 && r.quiet && r.diffs.length === 0, report).toBe(true);
    }, 900_000);
});
