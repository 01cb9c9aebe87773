/**
 * Which verification policy a new session gets (spec "Session creation input fields", which
 * leaves publishable-key values open). A secret key's values are trusted overrides. A publishable key
 * runs in the browser, where anyone can edit the request, so its values may only make the tenant's
 * policy stricter: L1→L2, a higher challengeAge, face match on. Looser values are replaced silently.
 */
import type { VerificationMode } from '@ageverify/protocol';

export interface Policy {
  verificationMode: VerificationMode;
  challengeAge: number;
  faceMatchEnabled: boolean;
}

export function resolvePolicy(tenant: Policy, requested: Partial<Policy>, keyType: 'publishable' | 'secret'): Policy {
  if (keyType === 'secret') {
    return {
      verificationMode: requested.verificationMode ?? tenant.verificationMode,
      challengeAge: requested.challengeAge ?? tenant.challengeAge,
      faceMatchEnabled: requested.faceMatchEnabled ?? tenant.faceMatchEnabled,
    };
  }
  return {
    verificationMode: requested.verificationMode === 'L2' ? 'L2' : tenant.verificationMode,
    challengeAge: Math.max(tenant.challengeAge, requested.challengeAge ?? tenant.challengeAge),
    faceMatchEnabled: tenant.faceMatchEnabled || requested.faceMatchEnabled === true,
  };
}
