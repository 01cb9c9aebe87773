import { isLoopbackHost } from '@ageverify/protocol';
import { AgeVerifyError, describeValue } from './errors';
import { checkUrl } from './url';

/** Spec "Conventions": `{base_url}` includes the version prefix. */
export const API_PREFIX = '/api/v1';

/**
 * The address the SDK file was loaded from, read once while the script runs.
 * The service serves the SDK under `/sdk/`, so `<script src="https://service/sdk/ageverify.iife.min.js">`
 * tells the SDK where the API is. In the IIFE build rollup turns `import.meta.url` into
 * `document.currentScript.src` (captured at load time); in the ES module build it is the module's URL.
 */
export const LOADED_FROM: string | undefined = readLoadedFrom();

function readLoadedFrom(): string | undefined {
  try {
    return import.meta.url;
  } catch {
    return undefined;
  }
}

/**
 * Derives `{base_url}` from the SDK's own script address: everything before the last `/sdk/`
 * segment, plus `/api/v1`. Returns undefined when the script did not come from a service's
 * `/sdk/` path over https (or http on localhost), for example when a bundler inlined the SDK:
 * guessing a host would send the key somewhere unintended.
 */
export function deriveBaseUrl(scriptUrl: string | undefined): string | undefined {
  if (!scriptUrl) return undefined;
  let url: URL;
  try {
    url = new URL(scriptUrl);
  } catch {
    return undefined;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  const sdkAt = url.pathname.lastIndexOf('/sdk/');
  if (!secure || url.username || url.password || sdkAt < 0) return undefined;
  return url.origin + url.pathname.slice(0, sdkAt) + API_PREFIX;
}

/**
 * The `baseUrl` option, or the address derived from the script tag. The option may be the full base
 * (`https://host/api/v1`) or just the service origin (`https://host`), which gets `/api/v1` appended.
 * Returned without a trailing slash, ready for `${base}/sessions/create`.
 */
export function resolveBaseUrl(option: unknown, scriptUrl: string | undefined): string {
  if (option === undefined) {
    const derived = deriveBaseUrl(scriptUrl);
    if (derived) return derived;
    throw new AgeVerifyError(
      'MISSING_BASE_URL',
      'Expected a baseUrl option such as "https://verify.example.com/api/v1", got undefined instead. ' +
        'It can be left out only when the SDK is loaded from the service itself (a script src ending in /sdk/…).',
    );
  }
  const url = checkUrl(option, 'baseUrl');
  if (url.search || url.hash) {
    throw new AgeVerifyError(
      'INVALID_OPTION',
      `Expected baseUrl without a query or fragment, such as "https://verify.example.com/api/v1", got ${describeValue(option)} instead.`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  return url.origin + (path === '' ? API_PREFIX : path);
}
