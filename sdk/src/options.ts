import { CHALLENGE_AGE_MAX, CHALLENGE_AGE_MIN, SDK_LANGUAGES, VERIFICATION_MODES, type CreateSessionRequest } from '@ageverify/protocol';
import { resolveBaseUrl } from './base-url';
import { AgeVerifyError, describeValue, maskKey } from './errors';
import type { AgeVerifyOptions, LaunchMode, NewTabTarget, VerifyOptions } from './types';
import { checkUrl, type DisplayParams } from './url';

/** Constructor options after validation: URLs normalized, defaults filled in. */
export interface ResolvedOptions {
  apiKey: string;
  returnUrl: string;
  cancelUrl?: string;
  baseUrl: string;
  defaultChallengeAge?: number;
  defaultVerificationMode?: AgeVerifyOptions['defaultVerificationMode'];
  language?: AgeVerifyOptions['language'];
  mode: LaunchMode;
  newTabTarget: NewTabTarget;
  onComplete?: AgeVerifyOptions['onComplete'];
  onCancel?: AgeVerifyOptions['onCancel'];
  onError?: AgeVerifyOptions['onError'];
}

const CONSTRUCTOR_OPTIONS = [
  'apiKey',
  'returnUrl',
  'cancelUrl',
  'defaultChallengeAge',
  'defaultVerificationMode',
  'mode',
  'newTabTarget',
  'language',
  'onComplete',
  'onCancel',
  'onError',
  'baseUrl',
];
const VERIFY_OPTIONS = ['externalUserId', 'verificationMode', 'challengeAge', 'language', 'skipIntro', 'autoReturn'];
const MODES: readonly LaunchMode[] = ['redirect', 'new-tab'];
const NEW_TAB_TARGETS: readonly NewTabTarget[] = ['popup', 'tab'];

/**
 * Validates constructor options (spec "Browser SDK", constructor options and initialization errors).
 * Throws an AgeVerifyError on the first problem; `scriptUrl` is where the SDK was loaded from, used
 * to derive baseUrl when the option is left out.
 */
export function resolveOptions(raw: unknown, scriptUrl: string | undefined): ResolvedOptions {
  const options = asRecord(raw, 'AgeVerify options', 'new AgeVerify({ apiKey, returnUrl })');
  rejectUnknown(options, CONSTRUCTOR_OPTIONS, 'option');

  const resolved: ResolvedOptions = {
    apiKey: checkApiKey(options.apiKey),
    returnUrl: checkReturnUrl(options.returnUrl),
    baseUrl: resolveBaseUrl(options.baseUrl, scriptUrl),
    mode: oneOf(options.mode, 'mode', MODES) ?? 'redirect',
    newTabTarget: oneOf(options.newTabTarget, 'newTabTarget', NEW_TAB_TARGETS) ?? 'popup',
  };
  if (options.cancelUrl !== undefined) resolved.cancelUrl = checkUrl(options.cancelUrl, 'cancelUrl').href;
  assign(resolved, 'defaultChallengeAge', challengeAge(options.defaultChallengeAge, 'defaultChallengeAge'));
  assign(resolved, 'defaultVerificationMode', oneOf(options.defaultVerificationMode, 'defaultVerificationMode', VERIFICATION_MODES));
  assign(resolved, 'language', oneOf(options.language, 'language', SDK_LANGUAGES));
  assign(resolved, 'onComplete', callback<ResolvedOptions['onComplete']>(options.onComplete, 'onComplete'));
  assign(resolved, 'onCancel', callback<ResolvedOptions['onCancel']>(options.onCancel, 'onCancel'));
  assign(resolved, 'onError', callback<ResolvedOptions['onError']>(options.onError, 'onError'));
  return resolved;
}

/** Validates the options of one verify() call. */
export function checkVerifyOptions(raw: unknown): VerifyOptions {
  if (raw === undefined) return {};
  const options = asRecord(raw, 'verify() options', 'verify({ externalUserId })');
  rejectUnknown(options, VERIFY_OPTIONS, 'verify() option');
  const checked: VerifyOptions = {};
  if (options.externalUserId !== undefined) {
    if (typeof options.externalUserId !== 'string' || options.externalUserId.trim() === '') {
      throw invalid(`Expected externalUserId to be a non-empty string, got ${describeValue(options.externalUserId)} instead.`);
    }
    checked.externalUserId = options.externalUserId;
  }
  assign(checked, 'verificationMode', oneOf(options.verificationMode, 'verificationMode', VERIFICATION_MODES));
  assign(checked, 'challengeAge', challengeAge(options.challengeAge, 'challengeAge'));
  assign(checked, 'language', oneOf(options.language, 'language', SDK_LANGUAGES));
  assign(checked, 'skipIntro', boolean(options.skipIntro, 'skipIntro'));
  assign(checked, 'autoReturn', boolean(options.autoReturn, 'autoReturn'));
  return checked;
}

/** What one verification attempt sends: the create-session body and the display parameters. */
export interface LaunchPlan {
  body: CreateSessionRequest;
  display: DisplayParams;
}

/**
 * Merges the options of one verify() call over the constructor defaults. The body holds only the
 * fields that have a value: the API rejects unknown properties with a 400 (spec "POST /sessions/create").
 */
export function planLaunch(config: ResolvedOptions, call: VerifyOptions): LaunchPlan {
  const body: CreateSessionRequest = { returnUrl: config.returnUrl };
  assign(body, 'cancelUrl', config.cancelUrl);
  assign(body, 'externalUserId', call.externalUserId);
  assign(body, 'verificationMode', call.verificationMode ?? config.defaultVerificationMode);
  assign(body, 'challengeAge', call.challengeAge ?? config.defaultChallengeAge);

  const display: DisplayParams = {};
  assign(display, 'lang', call.language ?? config.language);
  if (call.skipIntro) display.skip_intro = 'true';
  if (call.autoReturn) display.auto_return = 'true';
  return { body, display };
}

function checkApiKey(value: unknown): string {
  if (value === undefined || value === null || value === '') {
    throw new AgeVerifyError(
      'MISSING_API_KEY',
      `Expected the apiKey option to be your publishable key (starting with "pk_"), got ${describeValue(value)} instead.`,
    );
  }
  if (typeof value !== 'string') {
    throw new AgeVerifyError('INVALID_API_KEY', `Expected publishable key to be of type string, got ${describeValue(value)} instead.`);
  }
  if (value.startsWith('sk_')) {
    throw new AgeVerifyError(
      'SECRET_KEY_IN_BROWSER',
      `Expected publishable key to start with "pk_", got the secret key ${maskKey(value)} instead. ` +
        'Secret keys must never be used in browser code, where anyone can read them: keep sk_ keys on your server, ' +
        'pass the pk_ key of the same pair here, and rotate the secret key if this page was ever published.',
    );
  }
  if (!value.startsWith('pk_') || value.length <= 3) {
    throw new AgeVerifyError('INVALID_API_KEY', `Expected publishable key to start with "pk_", got ${maskKey(value)} instead.`);
  }
  if (/\s/.test(value)) {
    throw new AgeVerifyError('INVALID_API_KEY', 'Expected publishable key without spaces or line breaks, got a key containing whitespace instead.');
  }
  return value;
}

function checkReturnUrl(value: unknown): string {
  if (value === undefined || value === null || value === '') {
    throw new AgeVerifyError(
      'MISSING_RETURN_URL',
      `Expected the returnUrl option to be an absolute URL such as "https://shop.example/age-verified", got ${describeValue(value)} instead.`,
    );
  }
  return checkUrl(value, 'returnUrl').href;
}

function challengeAge(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < CHALLENGE_AGE_MIN || value > CHALLENGE_AGE_MAX) {
    throw invalid(`Expected ${name} to be a whole number from ${CHALLENGE_AGE_MIN} to ${CHALLENGE_AGE_MAX}, got ${describeValue(value)} instead.`);
  }
  return value;
}

function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || allowed.indexOf(value as T) < 0) {
    throw invalid(`Expected ${name} to be one of ${allowed.map((v) => `"${v}"`).join(', ')}, got ${describeValue(value)} instead.`);
  }
  return value as T;
}

function boolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(`Expected ${name} to be true or false, got ${describeValue(value)} instead.`);
  return value;
}

// Only "is it callable" can be checked at run time; the signature is the declared one.
function callback<F>(value: unknown, name: string): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw invalid(`Expected ${name} to be a function, got ${describeValue(value)} instead.`);
  return value as F;
}

function asRecord(value: unknown, what: string, example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`Expected ${what} to be an object, as in ${example}, got ${describeValue(value)} instead.`);
  }
  return value as Record<string, unknown>;
}

/** A misspelt option would otherwise be ignored without a word. */
function rejectUnknown(options: Record<string, unknown>, known: readonly string[], what: string): void {
  for (const key of Object.keys(options)) {
    if (known.indexOf(key) < 0) {
      throw invalid(`Expected ${what}s among ${known.join(', ')}, got the unknown ${what} "${key}" instead.`);
    }
  }
}

function invalid(message: string): AgeVerifyError {
  return new AgeVerifyError('INVALID_OPTION', message);
}

/** Sets a property only when the value is defined, so objects never carry `key: undefined`. */
function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
