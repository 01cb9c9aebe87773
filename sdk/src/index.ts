/**
 * AgeVerify browser SDK (spec "Browser SDK (client-side library)").
 *
 * Script tag: `<script src="https://<service>/sdk/ageverify.iife.min.js">` defines the global
 * `AgeVerify` holding these exports (`new AgeVerify.AgeVerify({...})`, `AgeVerify.VERSION`).
 * ES module: `import { AgeVerify } from 'https://<service>/sdk/ageverify.esm.min.js'`.
 */
declare const __SDK_VERSION__: string;

/**
 * The SDK version (spec "Versioning"), injected from sdk/package.json at build time. Unbuilt sources
 * (unit tests) have no injected value and report "0.0.0-dev"; the build folds the check away.
 */
export const VERSION: string = typeof __SDK_VERSION__ === 'string' ? __SDK_VERSION__ : '0.0.0-dev';

export { AgeVerify, create } from './ageverify';
export { AgeVerifyError } from './errors';
export type { AgeVerifyErrorCode, AgeVerifyErrorDetails } from './errors';
export type {
  AgeVerifyOptions,
  CancelPayload,
  CompletePayload,
  LaunchMode,
  NewTabTarget,
  SdkLanguage,
  VerificationMode,
  VerifyOptions,
  VerifyResult,
} from './types';
