/** Schemas of the verify UI's own API (protocol/src/verify.ts). */
import { t, type Static } from 'elysia';
import {
  CALLBACK_STATUSES,
  CHECK_KINDS,
  SESSION_STATES,
  SIMULATED_OUTCOMES,
  VERIFICATION_MODES,
  type SessionStatusResult,
  type SimulateResult,
  type VerifySessionView,
} from '@ageverify/protocol';
import { literalUnion } from '../../http/literal-union';
import { billingBlock } from '../sessions/model';

const TOKEN_LENGTH = { minLength: 1, maxLength: 200 } as const;
const token = t.String({ ...TOKEN_LENGTH, description: 'The sessionToken from the session creation result.' });
const sessionId = t.String({ minLength: 1, maxLength: 64, description: 'The session, as returned by /sessions/create.' });

/** Desktop (sessionToken) or phone (handoffToken); the service checks that exactly one is sent. */
const credentials = {
  sessionId,
  sessionToken: t.Optional(
    t.String({ ...TOKEN_LENGTH, description: 'The desktop credential: sessionToken from the creation result. Send it or handoffToken, not both.' }),
  ),
  handoffToken: t.Optional(
    t.String({ ...TOKEN_LENGTH, description: 'The phone credential, from the QR code (handoffUrl). Send it or sessionToken, not both.' }),
  ),
};

const exampleCredentials = { sessionId: 'ses_4eC39HqLyjWDarjtT1zdp7', sessionToken: 'st_…' };

export const loadSessionBody = t.Object(credentials, { additionalProperties: false, examples: [exampleCredentials] });

export const simulateBody = t.Object(
  { ...credentials, outcome: literalUnion(SIMULATED_OUTCOMES, { description: 'The result the sandbox session ends with.' }) },
  { additionalProperties: false, examples: [{ ...exampleCredentials, outcome: 'verified' }] },
);

/** Status polling and cancel are for the sessionToken holder only. */
export const sessionTokenBody = t.Object({ sessionId, sessionToken: token }, { additionalProperties: false, examples: [exampleCredentials] });

const redirectUrl = t.String({ description: 'The returnUrl (or cancelUrl) with sessionId, status and timestamp appended: where the UI sends the user.' });

/** protocol VerifySessionView. */
export const sessionViewResult = t.Object(
  {
    sessionId: t.String({ description: 'The session.' }),
    state: literalUnion(SESSION_STATES, { description: 'Server-side state of the session.' }),
    merchantName: t.Union([t.String(), t.Null()], { description: 'Shown to the user; null when the merchant gave none.' }),
    verificationMode: literalUnion(VERIFICATION_MODES, { description: 'L1 face age estimation, L2 ID document.' }),
    challengeAge: t.Number({ description: 'The threshold of the face age estimate (L1). An ID document is not checked against it.' }),
    legalMinimumAge: t.Number({
      description: "The age an ID document's date of birth must show (L2, or L1 after a step-up): the account's legal minimum age, default 18.",
    }),
    faceMatchEnabled: t.Boolean({ description: 'Whether L2 also compares a selfie with the document photo.' }),
    sandboxMode: t.Boolean({ description: 'A sandbox session: the tester chooses the outcome.' }),
    expiresAt: t.String({ format: 'date-time', description: 'When the session expires if not completed.' }),
    billingBlock: t.Union([billingBlock, t.Null()], { description: 'Set when billing forbids starting a check; the UI shows its message.' }),
    redirectUrl: t.Union([redirectUrl, t.Null()], { description: 'Where the user goes when the session is already over; null while pending.' }),
    handoffUrl: t.Union([t.String(), t.Null()], {
      description: 'The link a phone opens to continue (QR handoff); only for the sessionToken holder of a pending session.',
    }),
    handoff: t.Boolean({ description: 'True when the caller authenticated with the handoffToken (the phone).' }),
    nextCheck: t.Union([literalUnion(CHECK_KINDS), t.Null()], { description: 'The live check expected next; null once the session is over.' }),
    documentInstead: t.Boolean({
      description:
        'Whether a user without a camera may continue with an ID document instead of the face check (POST /api/v1/verify/document-instead): an L1 session at its face check whose account allows step-up, with face match off.',
    }),
  },
  {
    examples: [
      {
        sessionId: 'ses_4eC39HqLyjWDarjtT1zdp7',
        state: 'PENDING',
        merchantName: 'Demo Shop',
        verificationMode: 'L1',
        challengeAge: 25,
        legalMinimumAge: 18,
        faceMatchEnabled: false,
        sandboxMode: true,
        expiresAt: '2026-01-15T12:10:00.000Z',
        billingBlock: null,
        redirectUrl: null,
        handoffUrl: 'https://verify.example.com/verify?sessionId=ses_4eC39HqLyjWDarjtT1zdp7&handoffToken=ht_…',
        handoff: false,
        nextCheck: 'age_estimation',
        documentInstead: true,
      },
    ],
  },
);

/** protocol SimulateResult: the outcome a simulate or cancel call ended the session with. */
export const outcomeResult = t.Object(
  { redirectUrl, status: literalUnion(CALLBACK_STATUSES, { description: 'The status the redirect carries.' }) },
  {
    examples: [
      {
        redirectUrl: 'https://shop.example.com/age-check/return?sessionId=ses_4eC39HqLyjWDarjtT1zdp7&status=verified&timestamp=1768478592000',
        status: 'verified',
      },
    ],
  },
);

/** protocol SessionStatusResult. */
export const sessionStatusResult = t.Object(
  {
    state: literalUnion(SESSION_STATES, { description: 'Server-side state of the session.' }),
    status: t.Union([literalUnion(CALLBACK_STATUSES), t.Null()], { description: 'The callback status once the session is over; null while pending.' }),
    redirectUrl: t.Union([redirectUrl, t.Null()], { description: 'Set once the session is over.' }),
  },
  { examples: [{ state: 'PENDING', status: null, redirectUrl: null }] },
);

// The schemas above describe protocol types the UI compiles against: these fail the type check if
// either side changes without the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemasMatchProtocol: [
  Same<Static<typeof sessionViewResult>, VerifySessionView>,
  Same<Static<typeof outcomeResult>, SimulateResult>,
  Same<Static<typeof sessionStatusResult>, SessionStatusResult>,
] = [true, true, true];
void schemasMatchProtocol;
