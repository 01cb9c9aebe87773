/**
 * English strings: the reference locale. Every other locale is typed `Translation`, so a key that
 * is missing or misspelt in any language fails the type check instead of showing a raw key.
 * Values are interpolated by i18next (`{{name}}`) and escaped by Lit when rendered.
 */
export const en = {
  app: {
    title: 'Age verification',
    loading: 'Loading your verification…',
    sandboxBadge: 'Sandbox',
    redirecting: 'Taking you back…',
    language: 'Language',
  },
  intro: {
    heading: 'Confirm your age',
    leadMerchant: '{{merchant}} asks you to confirm that you are at least {{age}} years old.',
    leadGeneric: 'This website asks you to confirm that you are at least {{age}} years old.',
    documentLeadMerchant: '{{merchant}} asks you to confirm your age with an official ID document.',
    documentLeadGeneric: 'This website asks you to confirm your age with an official ID document.',
    documentRule: 'The document must be valid and not expired, and its date of birth must show that you are at least {{age}} years old.',
    stepsHeading: 'What happens next',
    stepSelfie: 'Take a short selfie so your age can be estimated.',
    stepDocument: 'Photograph an official ID document, such as a passport, ID card or driving licence.',
    stepFaceMatch: 'Take a selfie so it can be compared with the photo on your document.',
    privacy: 'Your images are used only for this check and are not stored.',
    sandboxNote: 'This is a sandbox session for testing. No real check takes place.',
    start: 'Start',
  },
  sandbox: {
    heading: 'Choose the test outcome',
    bodyMerchant: 'No camera is used and no real check takes place. The result you choose is sent to {{merchant}} as if it were real.',
    bodyGeneric: 'No camera is used and no real check takes place. The result you choose is sent to the website as if it were real.',
    verified: 'Simulate verified',
    failed: 'Simulate failed',
    cancelled: 'Simulate cancelled',
    submitting: 'Sending the test result…',
    error: 'The test result could not be sent.',
  },
  live: {
    loading: 'Preparing the camera…',
    loadFailed: 'The camera part of this page could not be loaded. Check your connection and try again.',
    retryLoad: 'Try again',
  },
  result: {
    verifiedHeading: 'Verified',
    verifiedBody: 'Your age has been confirmed.',
    failedHeading: 'Not verified',
    failedBody: 'Your age could not be confirmed.',
    cancelledHeading: 'Cancelled',
    cancelledBody: 'The verification was cancelled.',
    redirectNotice: 'You will be taken back in a moment.',
    continue: 'Continue',
    windowNotice: 'This window will close in a moment.',
    closeWindow: 'Close window',
    returnLink: 'Return to the website here instead',
  },
  over: {
    heading: 'This verification has ended',
    redirecting: 'Taking you back to the website…',
    noRedirect: 'This verification link can no longer be used. Please start again from the website.',
    continue: 'Continue',
  },
  blocked: {
    heading: 'Verification is not available',
    portalLink: 'Open the billing portal',
    back: 'Back to the website',
    codes: {
      SUBSCRIPTION_REQUIRED: 'Age verification is not available right now because this merchant has no active subscription. Please contact the merchant.',
      PLAN_LIMIT_REACHED:
        "Age verification is not available right now because this merchant's monthly verification limit has been reached. Please try again later or contact the merchant.",
      SANDBOX_LIMIT_REACHED: 'This sandbox account has used all of its test verifications for this month.',
    },
  },
  handoff: {
    offer: 'No camera here, or prefer your phone? You can finish this verification there.',
    open: 'Continue on your phone',
    heading: 'Continue on your phone',
    instructions: "Scan this QR code with your phone's camera, or open the link below on your phone.",
    qrLabel: 'QR code with the link to continue this verification on your phone',
    linkLabel: 'Link for your phone:',
    copy: 'Copy link',
    copied: 'Link copied',
    waiting: 'Waiting for your phone… This page continues by itself when you finish there.',
    pollStopped: 'This page can no longer check for the result from your phone. When you have finished there, reload this page.',
    doneHeading: 'Done — return to your computer',
    doneBody: 'The website on your computer continues by itself. You can close this page.',
    loopback:
      'This service is set up with an address of this computer only, so a phone cannot open the link. Ask the site operator to set PUBLIC_BASE_URL to an address your phone can reach.',
  },
  error: {
    incompleteHeading: 'This link is incomplete',
    incompleteBody: 'The verification link is missing information. Please go back to the website and start the verification again.',
    heading: 'This verification could not be opened',
    unauthorized: 'The verification link is not valid. It may have been changed or copied incompletely.',
    notFound: 'This verification session does not exist.',
    rateLimited: 'There have been too many requests. Please wait a moment and try again.',
    server: 'Something went wrong on our side. Please try again.',
    network: 'The server could not be reached. Check your connection and try again.',
    invalidResponse: 'The server sent an unexpected response. Please try again.',
    rejected: 'The request was refused.',
    badRedirect: 'The address to return to is not valid, so you cannot be sent back automatically.',
    details: 'Details: {{message}}',
    unknownDetail: 'The server gave a reason that this page cannot show in your language (error {{status}}).',
    retry: 'Try again',
  },
};

export type Translation = typeof en;
