import { describe, expect, test } from 'bun:test';
import { summariseLiveness, type LivenessResult } from './liveness-summary';

const result = (kind: string, passed: boolean, extra: Partial<LivenessResult> = {}): LivenessResult => ({
  sequence: `${kind}-${Math.random()}`,
  kind,
  genuine: kind === 'genuine',
  amplitude: kind === 'genuine' ? 25 : null,
  passed,
  failure: passed ? null : 'flat',
  ...extra,
});

describe('liveness summary', () => {
  test('attack acceptance per kind with the failure classes, and genuine rejection per amplitude', () => {
    const summary = summariseLiveness([
      result('still', false, { failure: 'not_followed' }),
      result('still', false, { failure: 'not_followed' }),
      result('held-turn-a', true),
      result('held-turn-a', false),
      result('genuine', true, { amplitude: 15 }),
      result('genuine', false, { amplitude: 15, failure: 'not_followed' }),
      result('genuine', true, { amplitude: 30 }),
    ]);
    expect(summary.attacks).toEqual([
      { kind: 'held-turn-a', passed: 1, total: 2, failures: { flat: 1 } },
      { kind: 'still', passed: 0, total: 2, failures: { not_followed: 2 } },
    ]);
    expect([summary.attackAccepted, summary.attackTotal]).toEqual([1, 4]);
    expect([summary.genuineRejected, summary.genuineTotal]).toEqual([1, 3]);
    expect(summary.genuineByAmplitude).toEqual([
      { amplitude: 15, rejected: 1, total: 2 },
      { amplitude: 30, rejected: 0, total: 1 },
    ]);
  });
});
