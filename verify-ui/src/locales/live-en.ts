/**
 * English strings of the live check (camera, document, upload, retry hints, step-up, failure
 * reasons): the reference for the other live locales. They ship in the lazily loaded capture
 * chunk, not in the first bundle, and are added to i18next when that chunk loads
 * (live-capture.ts); the keys merge into the same tree as en.ts (`result.reasons` beside
 * `result.verifiedHeading`).
 */
export const liveEn = {
  camera: {
    selfieHeading: 'Take a selfie',
    selfieIntro:
      'We use your camera for a few seconds to take a short series of pictures of your face. Nothing is taken before you press the button, and the pictures are used only for this check.',
    selfieAfterDocument: 'Now take a selfie, so it can be compared with the photo on your document.',
    documentHeading: 'Photograph your document',
    documentIntro: 'We use your camera to take one picture of your document. The picture is used only for this check.',
    documentFrontHeading: 'Now the front, with your photo',
    documentFrontIntro:
      'Now take one picture of the front of your driving licence, the side with your photo. It is compared with your selfie and used only for this check.',
    allow: 'Turn on the camera',
    permissionHint: 'Your browser will ask whether this page may use the camera.',
    starting: 'Starting the camera…',
    previewLabel: 'Camera preview',
    selfieGuide: 'Place your face inside the oval, look at the camera and hold still.',
    passportGuide: 'Place the photo page of your passport inside the frame, with the two lines of characters at the bottom sharp and readable.',
    idCardGuide: 'Place the back of your ID card, with the lines of characters, inside the frame.',
    licenceGuide: 'Place the back of your driving licence, with the barcode, inside the frame.',
    licenceFrontGuide: 'Place the front of your driving licence, with your photo, inside the frame.',
    capture: 'Take the pictures',
    captureDocument: 'Take the picture',
    capturing: 'Hold still… {{taken}} of {{total}}',
    paused: 'The camera was turned off while this page was in the background.',
    resume: 'Turn the camera back on',
    uploadInstead: 'Camera not working? Upload a photo instead',
    deniedHeading: 'The camera is blocked',
    deniedBody: 'This page is not allowed to use your camera.',
    howToAllow: 'To allow it, select the camera or lock icon in the address bar, allow the camera for this site, then select “Try the camera again”.',
    howToAllowSafari:
      'To allow it, open Settings › Safari › Camera (on a Mac: Safari › Settings for This Website › Camera), choose Allow, then select “Try the camera again”.',
    unavailableHeading: 'No camera can be used',
    unavailableBody: 'This browser or device does not give this page a camera, or another app is using it.',
    desktopAlternative: 'You can continue on your phone instead (below), or upload a photo.',
    phoneAlternative: 'You can take the photo with your camera app and upload it instead.',
    retryCamera: 'Try the camera again',
    uploadSelfie: 'Upload a selfie',
    uploadDocument: 'Upload a photo of the document',
    uploadDocumentFront: 'Upload a photo of the front',
    uploadFailed: 'This photo could not be opened. Please choose another one.',
  },
  document: {
    chooseHeading: 'Which document will you use?',
    chooseBody: 'Choose the official document you have with you.',
    passport: 'Passport',
    passportHint: 'The page with your photo',
    idCard: 'ID card',
    idCardHint: 'The back, with three lines of characters',
    drivingLicence: 'Driving licence',
    drivingLicenceHint: 'The back, with the barcode',
    drivingLicenceBothSidesHint: 'The back with the barcode, then the front with your photo',
    continue: 'Continue',
  },
  upload: {
    heading: 'Checking your pictures',
    sending: 'Sending… {{percent}} %',
    checking: 'Sent. Checking…',
    progressLabel: 'Upload progress',
    failed: 'Your pictures could not be sent.',
    resend: 'Send again',
  },
  retry: {
    heading: 'Let’s take that again',
    attemptsLeft: 'Tries left: {{count}}',
    takeAgain: 'Take it again',
    hints: {
      no_face: 'We could not see a face. Make sure your whole face is in the oval.',
      multiple_faces: 'Only one face, please. Make sure nobody else is in the picture.',
      face_too_small: 'Move closer to the camera.',
      face_not_centered: 'Centre your face in the oval.',
      face_not_frontal: 'Look straight at the camera.',
      too_dark: 'More light, please. Face a window or a lamp.',
      too_blurry: 'Hold still while the pictures are taken.',
      document_not_found: 'We could not find the document in the picture. Fill the frame with it.',
      document_unreadable: 'We could not read the document. Avoid glare and fill the frame.',
      document_front_unreadable: 'We could not see the photo on the front of your licence. Avoid glare and fill the frame.',
      image_unreadable: 'The picture could not be opened. Please take it again.',
      challenge_not_followed: 'Turn your head the way the arrow shows, then look back at the camera.',
      face_changed: 'Keep only your own face in view for the whole capture.',
    },
  },
  stepUp: {
    heading: 'One more step',
    body: 'Your age could not be confirmed from the selfie alone, so please continue with an ID document. You stay in the same verification.',
    continue: 'Continue with a document',
  },
  result: {
    tooManyHeading: 'Too many attempts',
    reasons: {
      age_not_met: 'The check did not show the required age.',
      document_invalid: 'The document could not be accepted as a valid passport, ID card or driving licence.',
      document_expired: 'The document has expired.',
      face_mismatch: 'The selfie does not match the photo on the document.',
      liveness_failed: 'The selfie has to be taken live of a real person, not of a photo or a screen.',
      too_many_attempts: 'The limit of attempts for this verification has been reached. Please start again from the website.',
    },
  },
};

export type LiveTranslation = typeof liveEn;
