import { expect, test } from 'bun:test';
import { summariseFaces, summariseFacesBy, type FaceResult } from './accuracy-summary';

const result = (ageMin: number, ageMax: number, estimatedAge: number | null, verifiedAt: number[]): FaceResult => ({
  file: `${ageMin}.jpg`,
  ageMin,
  ageMax,
  face: estimatedAge !== null,
  estimatedAge,
  l1: Object.fromEntries([25, 30].map((c) => [String(c), verifiedAt.includes(c) ? 'verified' : 'step_up'])),
  ms: 10,
});

test('MAE over exact ages only; pass shares by group', () => {
  const summary = summariseFaces([result(16, 16, 20, []), result(40, 40, 44, [25, 30]), result(20, 29, 31, [25]), result(10, 10, null, [])], [25, 30]);
  expect(summary.mae).toBe(4);
  expect(summary.found).toBe(3);
  expect(summary.byChallenge).toEqual([
    { challengeAge: 25, minors: { passed: 0, total: 2 }, underChallenge: { passed: 0, total: 2 }, atLeastChallenge: { passed: 1, total: 1 } },
    { challengeAge: 30, minors: { passed: 0, total: 2 }, underChallenge: { passed: 0, total: 3 }, atLeastChallenge: { passed: 1, total: 1 } },
  ]);
});

test('pass shares per gender, only over the faces that carry the label', () => {
  const [female, male] = summariseFacesBy(
    [
      { ...result(16, 16, 31, [25]), gender: 'female' },
      { ...result(40, 40, 44, [25, 30]), gender: 'female' },
      { ...result(16, 16, 14, []), gender: 'male' },
      result(40, 40, 44, [25]),
    ],
    [25, 30],
    'gender',
  );
  expect(female?.value).toBe('female');
  expect(female?.n).toBe(2);
  expect(female?.byChallenge[0]?.minors).toEqual({ passed: 1, total: 1 });
  expect(male?.byChallenge[0]?.minors).toEqual({ passed: 0, total: 1 });
  expect(male?.byChallenge[0]?.atLeastChallenge).toEqual({ passed: 0, total: 0 });
});
