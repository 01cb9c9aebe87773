import {
  CHECK_IMAGE_PARTS,
  CHECK_LIMITS,
  FAILURE_REASONS,
  RETRY_HINTS,
  CAPTURE_PARTS,
  type CheckKind,
  type CheckResult,
  type DocumentType,
  type VerifyCredentials,
} from '@ageverify/protocol';
import { apiBase, credentialBody, httpFailure, type ApiResult } from './api';
import { selfieStepsField, type ChallengeFrames } from './liveness-capture';

/**
 * Client of the submission API (protocol/src/checks.ts): `POST /api/v1/verify/checks`,
 * multipart/form-data with the text fields of CheckSubmissionFields and the image parts of
 * CHECK_IMAGE_PARTS. One request carries everything one decision needs. XMLHttpRequest, not fetch,
 * because only it reports upload progress, and a few MB from a phone on a slow network take long
 * enough that the user must see it moving.
 */
export interface CheckSubmission {
  credentials: VerifyCredentials;
  check: CheckKind;
  /** Required for `document`. */
  documentType?: DocumentType;
  /**
   * The frames of one liveness challenge, oldest first, with their steps (L1, or face match with a
   * document); null for a document check without face match. Selfies come only from the live
   * camera (issue 19 Deliver 2), so there is no selfie without a challenge.
   */
  selfie: ChallengeFrames | null;
  /** The MRZ page, or the PDF417 side of a licence. */
  document: Blob | null;
  /** A licence's front (portrait), sent when face match is on (protocol needsDocumentFront). */
  documentFront?: Blob | null;
}

/** The engine decodes and compares images; give it time, but a dead connection must end in an error. */
const CHECK_TIMEOUT_MS = 90_000;

/**
 * The multipart body: text fields first (so the server can refuse a bad session before reading
 * any image), then the parts. Misuse throws at once, as it is a bug in this page, not a user error.
 */
export function checkFormData(submission: CheckSubmission): FormData {
  if (submission.check === 'document' && (!submission.documentType || !submission.document)) {
    throw new Error(
      `Expected a document image and documentType for check=document, got ${submission.document ? 'an image' : 'no image'} and ${submission.documentType ?? 'no documentType'}`,
    );
  }
  if (submission.documentFront && (submission.check !== 'document' || submission.documentType !== 'driving_licence')) {
    throw new Error(
      `Expected a documentFront image only with a driving licence, got check=${submission.check} and ${submission.documentType ?? 'no documentType'}`,
    );
  }
  const selfie = submission.selfie;
  if (submission.check === 'age_estimation' && (!selfie || selfie.frames.length === 0))
    throw new Error('Expected at least one selfie frame for check=age_estimation, got none');
  if (selfie && selfie.frames.length > CHECK_LIMITS.maxSelfieFrames) {
    throw new Error(`Expected at most ${CHECK_LIMITS.maxSelfieFrames} selfie frames, got ${selfie.frames.length}`);
  }
  if (selfie && selfie.steps.length !== selfie.frames.length) {
    throw new Error(`Expected one challenge step per selfie frame, got ${selfie.steps.length} steps for ${selfie.frames.length} frames`);
  }
  if (selfie && !selfie.challengeId) throw new Error('Expected the challengeId of the selfie frames, got an empty one');
  const form = new FormData();
  for (const [name, value] of Object.entries(credentialBody(submission.credentials))) form.append(name, value);
  form.append('check', submission.check);
  if (submission.check === 'document' && submission.documentType) form.append('documentType', submission.documentType);
  if (selfie && selfie.frames.length > 0) {
    // protocol/src/liveness.ts: the challenge the frames answer and the step of each, in part order.
    form.append('challengeId', selfie.challengeId);
    form.append('selfieSteps', selfieStepsField(selfie.steps));
  }
  if (submission.check === 'document' && submission.document)
    form.append(CHECK_IMAGE_PARTS.document, submission.document, `document${extensionOf(submission.document)}`);
  if (submission.documentFront)
    form.append(CHECK_IMAGE_PARTS.documentFront, submission.documentFront, `document-front${extensionOf(submission.documentFront)}`);
  for (const [index, frame] of (selfie?.frames ?? []).entries()) form.append(CHECK_IMAGE_PARTS.selfie, frame, `selfie-${index + 1}${extensionOf(frame)}`);
  return form;
}

function extensionOf(blob: Blob): string {
  return blob.type === 'image/png' ? '.png' : blob.type === 'image/webp' ? '.webp' : '.jpg';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function includes<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** Whether a 2xx body is one of the CheckResult shapes; anything else is an invalid response. */
export function isCheckResult(value: unknown): value is CheckResult {
  if (!isRecord(value)) return false;
  switch (value.decision) {
    case 'verified':
      return value.status === 'verified' && typeof value.redirectUrl === 'string';
    case 'failed':
      return value.status === 'failed' && includes(FAILURE_REASONS, value.reason) && typeof value.redirectUrl === 'string';
    case 'retry':
      return includes(RETRY_HINTS, value.hint) && includes(CAPTURE_PARTS, value.part) && typeof value.attemptsLeft === 'number' && value.attemptsLeft >= 0;
    case 'step_up':
      return value.next === 'document';
    default:
      return false;
  }
}

/** What the server answered, as the UI's result type (the same rules as api.ts postJson). */
export function interpretCheckResponse(status: number, bodyText: string, headers: Pick<Headers, 'get'>): ApiResult<CheckResult> {
  let parsed: unknown = null;
  try {
    parsed = bodyText ? JSON.parse(bodyText) : null;
  } catch {
    // Not JSON (a proxy's error page): decided by status below.
  }
  if (status === 0) return { ok: false, failure: { kind: 'network' } };
  if (status < 200 || status >= 300) {
    return { ok: false, failure: httpFailure(status, parsed, headers) };
  }
  if (!isCheckResult(parsed)) return { ok: false, failure: { kind: 'invalid-response', status } };
  return { ok: true, value: parsed };
}

export interface SubmitOptions {
  /** Fraction of the body sent so far, 0 to 1. */
  onProgress(fraction: number): void;
  signal?: AbortSignal;
}

/** Sends one submission; resolves with the engine's decision or a failure, never rejects. */
export function submitCheck(submission: CheckSubmission, options: SubmitOptions): Promise<ApiResult<CheckResult>> {
  const body = checkFormData(submission);
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${apiBase()}/verify/checks`);
    request.setRequestHeader('accept', 'application/json');
    // The session token travels in the body; no cookies are needed or wanted.
    request.withCredentials = false;
    request.timeout = CHECK_TIMEOUT_MS;
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
    });
    request.upload.addEventListener('load', () => options.onProgress(1));
    const headers = { get: (name: string) => request.getResponseHeader(name) };
    request.addEventListener('load', () => resolve(interpretCheckResponse(request.status, request.responseText, headers)));
    const fail = () => resolve({ ok: false, failure: { kind: 'network' } });
    request.addEventListener('error', fail);
    request.addEventListener('timeout', fail);
    request.addEventListener('abort', fail);
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}
