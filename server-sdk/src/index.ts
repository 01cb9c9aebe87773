/**
 * @ageverify/server — what a merchant's server needs:
 *  - `createClient({ baseUrl, secretKey }).validateSession(sessionId)`: the source of truth for a
 *    callback (spec: "All callback parameters, including status=verified, are untrusted").
 *  - `verifyWebhookSignature(rawBody, header, secret)`: checks `x-service-signature`
 *    (spec Authentication 8) over the RAW body bytes, in constant time;
 *    `verifyStandardWebhook(rawBody, headers, secret)` checks the Standard Webhooks headers,
 *    including the signed timestamp that stops replays.
 */
export { createClient, AgeVerifyApiError, type AgeVerifyClient, type ClientOptions, type ValidateOutcome } from './client';
export {
  verifyWebhookSignature,
  verifyStandardWebhook,
  signWebhookBody,
  standardSignature,
  standardWebhooksKey,
  DEFAULT_TOLERANCE_SECONDS,
  type StandardVerdict,
  type Bytes,
} from './webhook-signature';
export type { ValidateSessionResult, ErrorBody } from '@ageverify/protocol';
