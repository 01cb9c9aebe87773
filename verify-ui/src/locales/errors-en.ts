/**
 * English explanations of the verify API's refusals (error-details.ts has the messages they stand
 * for): the reference for the other error locales. Only a page that shows a refusal needs them, so
 * they load on demand, one small chunk per language (i18n.ts addErrorTranslations), not with the
 * first bundle. The keys merge into the same tree as en.ts.
 */
export const errorsEn = {
  apiErrors: {
    SESSION_TOKEN_REQUIRED: 'The link has no security token for this step.',
    ONE_TOKEN_REQUIRED: 'The link must carry exactly one security token.',
    HANDOFF_TOKEN_NOT_ALLOWED: 'This step is only possible on the device where the verification started, not with the phone link.',
    INVALID_SESSION_TOKEN: 'The security token in the link does not belong to this verification.',
    INVALID_HANDOFF_TOKEN: 'The security token in the phone link does not belong to this verification.',
    LINK_FIELD_INVALID: 'A value in the verification link is too long, empty or malformed.',
    SESSION_NOT_FOUND: 'The service does not know this verification.',
    SESSION_ALREADY_COMPLETED: 'This verification has already been completed.',
    SIMULATE_LIVE_SESSION: 'A test result can only be chosen in a sandbox session.',
    SESSION_BILLING_BLOCKED: "The merchant's account does not allow a check to start right now.",
    SESSION_RATE_LIMIT_EXCEEDED: 'Too many requests for this verification. You can try again in {{seconds}} seconds.',
    BODY_TOO_LARGE: 'The request was larger than the server accepts.',
    ROUTE_NOT_FOUND: 'This page is not connected to the service correctly.',
    SERVICE_UNAVAILABLE: 'The service is temporarily unavailable.',
    INTERNAL_ERROR: 'An unexpected error occurred on the server.',
    NOT_MULTIPART: 'The pictures were sent in a form the server does not accept.',
    MALFORMED_MULTIPART: 'The pictures arrived incomplete.',
    IMAGE_TOO_LARGE: 'A picture is larger than the server accepts.',
    IMAGE_TOO_COMPLEX: 'A picture could not be read in time. Please take it again.',
    SELFIE_REQUIRED: 'This verification needs a selfie as well, but none was sent.',
    DOCUMENT_FRONT_REQUIRED: 'This verification needs a picture of the front of the driving licence as well, but none was sent.',
    CHECK_SESSION_EXPIRED: 'The time for this verification has run out.',
    CHECK_IN_PROGRESS: 'Your pictures are already being checked. Please wait for the answer.',
    DOCUMENT_INSTEAD_NOT_ALLOWED: 'This verification cannot continue with an ID document instead of the face check.',
    DOCUMENT_INSTEAD_FACE_MATCH: 'This verification also compares your face with your ID, so it needs a camera. Please continue on a device with a camera.',
    WRONG_CHECK: 'This verification expects a different step. Reload the page to continue.',
    ENGINE_BUSY: 'The check is very busy right now. Please try again in a moment.',
    ENGINE_TIMEOUT: 'The check did not finish in time. Please try again in a moment.',
  },
};

export type ErrorTranslation = typeof errorsEn;
