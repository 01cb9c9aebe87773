import { describe, expect, test } from 'bun:test';
import { resolvePolicy, type Policy } from './policy';

const tenant: Policy = { verificationMode: 'L1', challengeAge: 25, faceMatchEnabled: true };
const strictTenant: Policy = { verificationMode: 'L2', challengeAge: 30, faceMatchEnabled: false };

describe('resolvePolicy', () => {
  test('secret key values are trusted overrides', () => {
    expect(resolvePolicy(strictTenant, { verificationMode: 'L1', challengeAge: 25, faceMatchEnabled: true }, 'secret')).toEqual(tenant);
  });
  test('absent values fall back to the tenant policy', () => {
    expect(resolvePolicy(tenant, {}, 'secret')).toEqual(tenant);
    expect(resolvePolicy(tenant, {}, 'publishable')).toEqual(tenant);
  });
  const cases: [string, Partial<Policy>, Policy, Policy][] = [
    ['pk may raise L1 to L2', { verificationMode: 'L2' }, tenant, { ...tenant, verificationMode: 'L2' }],
    ['pk may not lower L2 to L1', { verificationMode: 'L1' }, strictTenant, strictTenant],
    ['pk may raise challengeAge', { challengeAge: 40 }, tenant, { ...tenant, challengeAge: 40 }],
    ['pk may not lower challengeAge', { challengeAge: 25 }, strictTenant, strictTenant],
    ['pk may switch face match on', { faceMatchEnabled: true }, strictTenant, { ...strictTenant, faceMatchEnabled: true }],
    ['pk may not switch face match off', { faceMatchEnabled: false }, tenant, tenant],
  ];
  for (const [name, requested, base, expected] of cases) test(name, () => expect(resolvePolicy(base, requested, 'publishable')).toEqual(expected));
});
