/**
 * @ageverify/server — what a merchant's server needs:
 *  - `createClient({ baseUrl, secretKey }).validateSession(sessionId)`: the source of truth for a
 *    callback (spec: "All callback parameters, including status=verified, are untrusted").
 *  - `verifyWebhookSignature(rawBody, header, secret)`: checks `x-service-signature`
 *    (spec Authentication 8) over the RAW body bytes, in constant time;
 *    `verifyStandardWebhook(rawBody, headers, secret)` checks the Standard Webhooks headers,
 *    including the signed timestamp that stops replays.
 *  - `verifyReceipt(jws, { jwksUrl | jwks })`: checks a verification receipt (the validation
 *    result's `receipt`) against the service's published keys, with `jose`.
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
export { verifyReceipt, RECEIPT_TYPE, type ReceiptClaims, type ReceiptVerdict, type VerifyReceiptOptions } from './receipt';
export type { ValidateSessionResult, ErrorBody } from '@ageverify/protocol';
