/**
 * The convergence test's comparison itself (convergence-run.ts): a difference between a station
 * and its hub is reported, and two ends that hold the same records are not told apart.
 */
import { describe, expect, it } from 'vitest';
import { diffJson, normalise } from './convergence-run.ts';

const flag = (state: string, createdAt: string, resolvedAt: string | null) => ({
  id: 'flag_local',
  donationId: 'don_1',
  limitKind: 'per_election',
  window: 'primary-2026',
  state,
  createdAt,
  resolvedAt,
  resolutionNote: resolvedAt ? 'checked the card' : null,
});
const reviewed = flag('reviewed', '2026-12-02T16:27:01.958Z', '2026-12-02T16:27:02.096Z');
const reflagged = flag('open', '2026-12-02T16:27:02.391Z', null);
const flags = (...f: Array<ReturnType<typeof flag>>) =>
  (normalise({ flagged: f }, new Map()) as { flagged: Parameters<typeof diffJson>[0] }).flagged;

describe('the convergence comparison', () => {
  it('two flags on one gift, limit and window (reviewed, then raised again by a correction) at both ends: no difference', () => {
    expect(diffJson(flags(reflagged, reviewed), flags(reflagged, reviewed))).toEqual([]);
  });

  it('the newer of the two missing at a station: reported', () => {
    expect(diffJson(flags(reflagged, reviewed), flags(reviewed))).not.toEqual([]);
    expect(diffJson(flags(reviewed), flags(reflagged, reviewed))).not.toEqual([]);
  });

  it('the two in the other order at a station: reported', () => {
    expect(diffJson(flags(reflagged, reviewed), flags(reviewed, reflagged))).not.toEqual([]);
  });
});
