/**
 * The pure rules of the claim. The claim's SQL (one winner among parallel submissions, the lease,
 * the lapsed holder's refused writes) runs on both databases in check-service.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import { CHECK_ATTEMPT_LIMITS } from '@ageverify/protocol';
import { capReached, claimHeld } from './check-claim';

const now = new Date('2026-01-15T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('claimHeld', () => {
  test.each([
    ['no claim', null, null, false],
    ['a claim that runs on', 'c1', at(1), true],
    ['a claim that ends now has lapsed', 'c1', at(0), false],
    ['a lapsed claim', 'c1', at(-1), false],
  ] as const)('%s', (_, checkClaimId, checkClaimExpiresAt, held) => {
    expect(claimHeld({ checkClaimId, checkClaimExpiresAt }, now)).toBe(held);
  });
});

describe('capReached', () => {
  const { qualityRetries, decisions } = CHECK_ATTEMPT_LIMITS;
  test.each([
    [0, 0, false],
    [qualityRetries - 1, decisions - 1, false],
    [qualityRetries, 0, true],
    [0, decisions, true],
  ])('retries %d, decisions %d → %p', (checkRetries, checkDecisions, reached) => {
    expect(capReached({ checkRetries, checkDecisions })).toBe(reached);
  });
});
