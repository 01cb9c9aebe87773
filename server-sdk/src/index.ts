/**
 * @ageverify/server — what a merchant's server needs:
 *  - `createClient({ baseUrl, secretKey }).validateSession(sessionId)`: the source of truth for a
 *    callback (spec: "All callback parameters, including status=verified, are untrusted").
 *  - `verifyWebhookSignature(rawBody, header, secret)`: checks `x-service-signature`
 *    (spec Authentication 8) over the RAW body bytes, in constant time.
 */
export { createClient, AgeVerifyApiError, type AgeVerifyClient, type ClientOptions, type ValidateOutcome } from './client';
export { verifyWebhookSignature, signWebhookBody } from './webhook-signature';
export type { ValidateSessionResult, ErrorBody } from '@ageverify/protocol';
