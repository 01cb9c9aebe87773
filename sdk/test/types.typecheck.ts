/**
 * Type tests of the public API (issue: "Type tests, valid and invalid usages"). Nothing here runs:
 * `tsc -p sdk/tsconfig.test.json` (part of `bun run typecheck`) compiles it, every valid usage must
 * type-check, and every `@ts-expect-error` line must be an error — if one stops being an error,
 * the directive itself fails the build. sdk/dist/ageverify.d.ts is bundled from these sources by
 * rollup-plugin-dts, so the published types are the ones checked here.
 */
import { AgeVerify, type AgeVerifyError, VERSION, create, type AgeVerifyOptions, type CompletePayload, type VerifyResult } from '../src/index';

declare const element: { addEventListener(type: 'click', listener: () => void): void };

// ── valid usages ───────────────────────────────────────────────────────────────────────────────
const minimal = new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://shop.example/return' });
const full: AgeVerifyOptions = {
  apiKey: 'pk_live_x',
  returnUrl: 'https://shop.example/return',
  cancelUrl: 'https://shop.example/cancel',
  defaultChallengeAge: 25,
  defaultVerificationMode: 'L2',
  mode: 'new-tab',
  newTabTarget: 'tab',
  language: 'pt',
  onComplete: ({ sessionId, status, timestamp, externalUserId }: CompletePayload) => void [sessionId, status, timestamp, externalUserId],
  onCancel: () => false,
  onError: (error) => void error.code,
};
create(full);
const version: string = VERSION;
element.addEventListener('click', async () => {
  const result: VerifyResult = await minimal.verify({
    externalUserId: 'u1',
    verificationMode: 'L1',
    challengeAge: 30,
    language: 'de',
    skipIntro: true,
    autoReturn: true,
  });
  if (result.ok) {
    const id: string = result.sessionId;
    void id;
  } else {
    const error: AgeVerifyError = result.error;
    void error.code;
  }
  await minimal.verify();
});
void version;

// ── invalid usages ─────────────────────────────────────────────────────────────────────────────
// @ts-expect-error apiKey is required
new AgeVerify({ returnUrl: 'https://shop.example/return' });
// @ts-expect-error returnUrl is required
new AgeVerify({ apiKey: 'pk_live_x' });
// @ts-expect-error mode is 'redirect' or 'new-tab'
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', mode: 'iframe' });
// @ts-expect-error newTabTarget is 'popup' or 'tab'
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', newTabTarget: 'window' });
// @ts-expect-error the SDK option language excludes 'it' (spec: en, de, es, fr, pt only)
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', language: 'it' });
// @ts-expect-error verificationMode is L1 or L2
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', defaultVerificationMode: 'L3' });
// @ts-expect-error defaultChallengeAge is a number
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', defaultChallengeAge: '25' });
// @ts-expect-error unknown options are refused (a misspelt option must not be silently ignored)
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', retrunUrl: 'https://a.example' });
// @ts-expect-error onComplete receives the payload object, not a string
new AgeVerify({ apiKey: 'pk_live_x', returnUrl: 'https://a.example', onComplete: (sessionId: number) => sessionId });
// @ts-expect-error verify() takes no returnUrl: that is fixed at construction
void minimal.verify({ returnUrl: 'https://elsewhere.example' });
// @ts-expect-error skipIntro is a boolean
void minimal.verify({ skipIntro: 'yes' });
// @ts-expect-error a failed result has no sessionId to read without narrowing
void (async () => (await minimal.verify()).sessionId)();
