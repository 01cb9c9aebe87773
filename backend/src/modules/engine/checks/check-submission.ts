/**
 * Reads the multipart check submission (protocol/src/checks.ts) with its limits enforced while
 * reading: the body stops at maxSubmissionBytes, each image part at maxImageBytes, and the part
 * counts at the limits, all before any image is decoded. Bad input is a 4xx with the spec's error
 * body, never a 500. Images stay in memory as bytes.
 */
import {
  CHALLENGE_MOVES,
  CHECK_IMAGE_PARTS,
  CHECK_KINDS,
  CHECK_LIMITS,
  DOCUMENT_TYPES,
  parseSelfieSteps,
  type CheckKind,
  type DocumentType,
} from '@ageverify/protocol';
import { HTTP_ERRORS } from '../../../http/errors';
import { ENGINE_ERRORS } from '../errors';
import { textFieldProblem } from '../../../http/json-body';
import { readLimited } from '../../../http/error-handling';
import { jpegComplexityProblem } from '../image-decoding';

export interface CheckSubmission {
  sessionId: string;
  sessionToken?: string;
  handoffToken?: string;
  check: CheckKind;
  documentType?: DocumentType;
  selfies: Uint8Array[];
  document: Uint8Array | null;
  /** The front of a driving licence (the portrait), for face match; null when not sent. */
  documentFront: Uint8Array | null;
  /** The liveness challenge the selfies answer, and the step of each selfie (protocol/src/liveness.ts). */
  challengeId?: string;
  selfieSteps?: number[];
}

const TEXT_FIELDS = new Set(['sessionId', 'sessionToken', 'handoffToken', 'check', 'documentType', 'challengeId', 'selfieSteps']);

export async function readCheckSubmission(request: Request, path: string): Promise<CheckSubmission> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(contentType)) {
    throw ENGINE_ERRORS.NOT_MULTIPART({ path });
  }
  const limit = CHECK_LIMITS.maxSubmissionBytes;
  if (Number(request.headers.get('content-length') ?? '0') > limit) throw HTTP_ERRORS.BODY_TOO_LARGE({ maxBytes: limit });
  const bytes = await readLimited(request, limit);
  let form: Awaited<ReturnType<Response['formData']>>;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw ENGINE_ERRORS.MALFORMED_MULTIPART();
  }

  const problems: string[] = [];
  const text: Record<string, string> = {};
  const selfies: Uint8Array[] = [];
  const documents: Uint8Array[] = [];
  const fronts: Uint8Array[] = [];
  const imageParts: Record<string, Uint8Array[]> = {
    [CHECK_IMAGE_PARTS.selfie]: selfies,
    [CHECK_IMAGE_PARTS.document]: documents,
    [CHECK_IMAGE_PARTS.documentFront]: fronts,
  };
  for (const [name, value] of form.entries() as Iterable<[string, string | Blob]>) {
    if (typeof value === 'string') {
      // NUL and lone surrogates never reach the database (the JSON routes refuse them the same way).
      const textProblem = textFieldProblem(name, value);
      if (!TEXT_FIELDS.has(name)) problems.push(`property ${name} should not exist`);
      else if (name in text) problems.push(`property ${name} must be sent once`);
      else if (textProblem) problems.push(textProblem);
      else text[name] = value;
      continue;
    }
    const part = Object.hasOwn(imageParts, name) ? imageParts[name] : undefined;
    if (!part) {
      problems.push(`part ${name} should not exist; image parts are ${Object.values(CHECK_IMAGE_PARTS).join(', ')}`);
      continue;
    }
    if (value.size > CHECK_LIMITS.maxImageBytes) throw ENGINE_ERRORS.IMAGE_TOO_LARGE({ part: name, maxBytes: CHECK_LIMITS.maxImageBytes });
    const image = new Uint8Array(await value.arrayBuffer());
    // A JPEG with thousands of scans takes many seconds to decode (issue 22, finding 3): refused
    // here, on the request's own time, before it can take an engine worker from other sessions.
    const complexity = jpegComplexityProblem(image, `part ${name}`);
    if (complexity) problems.push(complexity);
    part.push(image);
  }
  if (selfies.length > CHECK_LIMITS.maxSelfieFrames) problems.push(`at most ${CHECK_LIMITS.maxSelfieFrames} ${CHECK_IMAGE_PARTS.selfie} parts`);
  if (documents.length > CHECK_LIMITS.maxDocumentImages) problems.push(`at most ${CHECK_LIMITS.maxDocumentImages} ${CHECK_IMAGE_PARTS.document} part`);
  if (fronts.length > CHECK_LIMITS.maxDocumentImages) problems.push(`at most ${CHECK_LIMITS.maxDocumentImages} ${CHECK_IMAGE_PARTS.documentFront} part`);
  if (!text.sessionId || text.sessionId.length > 64) problems.push('sessionId is required');
  for (const token of ['sessionToken', 'handoffToken'])
    if (text[token] !== undefined && (text[token]!.length === 0 || text[token]!.length > 200)) problems.push(`${token} must be 1 to 200 characters`);
  const check = text.check as CheckKind;
  if (!CHECK_KINDS.includes(check)) problems.push(`check must be one of ${CHECK_KINDS.join(', ')}`);
  const documentType = text.documentType as DocumentType | undefined;
  if (documentType !== undefined && !DOCUMENT_TYPES.includes(documentType)) problems.push(`documentType must be one of ${DOCUMENT_TYPES.join(', ')}`);
  if (check === 'document' && documentType === undefined) problems.push('documentType is required when check is document');
  if (check === 'document' && documents.length === 0) problems.push(`a ${CHECK_IMAGE_PARTS.document} part is required when check is document`);
  if (check === 'age_estimation' && selfies.length === 0)
    problems.push(`at least one ${CHECK_IMAGE_PARTS.selfie} part is required when check is age_estimation`);
  if (check === 'age_estimation' && documents.length > 0) problems.push(`no ${CHECK_IMAGE_PARTS.document} part when check is age_estimation`);
  // Only a licence has its portrait on another side than the one read (protocol needsDocumentFront);
  // a front sent with a passport or ID card is a client bug, refused rather than silently ignored.
  // Whether the front is required depends on the session's face match (check-service.ts).
  if (fronts.length > 0 && (check !== 'document' || documentType !== 'driving_licence'))
    problems.push(`no ${CHECK_IMAGE_PARTS.documentFront} part unless check is document and documentType is driving_licence`);
  if (text.challengeId !== undefined && (text.challengeId.length === 0 || text.challengeId.length > 64))
    problems.push('challengeId must be 1 to 64 characters');
  const selfieSteps = text.selfieSteps === undefined ? undefined : parseSelfieSteps(text.selfieSteps);
  if (selfieSteps === null) problems.push('selfieSteps must be comma-separated step numbers, one per selfie part');
  else if (selfieSteps && selfieSteps.length !== selfies.length)
    problems.push(`selfieSteps names ${selfieSteps.length} steps for ${selfies.length} ${CHECK_IMAGE_PARTS.selfie} parts`);
  else if (selfieSteps?.some((step) => step > CHALLENGE_MOVES.length)) problems.push(`selfieSteps must be between 0 and ${CHALLENGE_MOVES.length}`);
  if (problems.length > 0) throw ENGINE_ERRORS.INVALID_SUBMISSION({ problems });

  return {
    sessionId: text.sessionId!,
    sessionToken: text.sessionToken,
    handoffToken: text.handoffToken,
    check,
    documentType,
    selfies,
    document: documents[0] ?? null,
    documentFront: fronts[0] ?? null,
    challengeId: text.challengeId,
    selfieSteps: selfieSteps ?? undefined,
  };
}
