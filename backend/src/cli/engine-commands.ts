/**
 * `bun run cli engine check --mode L1|L2 --challenge-age N [--selfie FILE] [--document FILE] [--document-front FILE]`:
 * runs the verification engine on local files, in this process, and prints the decision, the scores
 * and the timings as JSON (issue 10, operator tools). Uses the same pure decisions as the server.
 */
import { readFileSync } from 'node:fs';
import { DOCUMENT_TYPES, needsDocumentFront, type DocumentType } from '@ageverify/protocol';
import { DEFAULT_L1_AGE_MARGIN } from '../config';
import { decideAgeEstimation } from '../modules/engine/decisions/age-decision';
import { decideDocument } from '../modules/engine/decisions/document-decision';
import { runJob } from '../modules/engine/runtime/engine-worker';
import type { EngineFindings, Timings } from '../modules/engine/model';
import { parseArgs } from './commands';

export const ENGINE_USAGE = `Usage: bun run cli engine check --mode L1|L2 --challenge-age N [--selfie FILE] [--document FILE] [--document-front FILE]
    [--document-type passport|id_card|driving_licence] [--legal-minimum-age N] [--face-match true|false] [--step-up true|false] [--margin N]`;

export async function engineCommand(argv: string[], now: Date): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { words, options } = parseArgs(argv);
  const one = (name: string) => options.get(name)?.[0];
  if (words.join(' ') !== 'engine check') return { stdout: '', stderr: `${ENGINE_USAGE}\n`, exitCode: 1 };
  const mode = one('mode');
  const challengeAge = Number(one('challenge-age') ?? '25');
  const selfie = one('selfie');
  const document = one('document');
  const documentFront = one('document-front');
  const documentType = (one('document-type') ?? 'passport') as DocumentType;
  const problems: string[] = [];
  if (mode !== 'L1' && mode !== 'L2') problems.push('--mode must be L1 or L2');
  if (!Number.isInteger(challengeAge) || challengeAge < 1 || challengeAge > 99) problems.push('--challenge-age must be a whole number from 1 to 99');
  if (mode === 'L1' && !selfie) problems.push('--selfie FILE is required with --mode L1');
  if (mode === 'L2' && !document) problems.push('--document FILE is required with --mode L2');
  if (!DOCUMENT_TYPES.includes(documentType)) problems.push(`--document-type must be one of ${DOCUMENT_TYPES.join(', ')}`);
  if (documentFront && documentType !== 'driving_licence') problems.push('--document-front FILE is only for --document-type driving_licence');
  if (problems.length) return { stdout: '', stderr: `${problems.join('\n')}\n${ENGINE_USAGE}\n`, exitCode: 1 };
  const policy = {
    challengeAge,
    l1Margin: Number(one('margin') ?? DEFAULT_L1_AGE_MARGIN),
    stepUpAllowed: one('step-up') !== 'false',
    legalMinimumAge: Number(one('legal-minimum-age') ?? '18'),
    faceMatchEnabled: one('face-match') === 'true' || (one('face-match') === undefined && mode === 'L2' && selfie !== undefined),
  };
  // As the submission API (check-service.ts): a licence's portrait is on its front.
  if (mode === 'L2' && needsDocumentFront(documentType, policy.faceMatchEnabled) && !documentFront) {
    return { stdout: '', stderr: `--document-front FILE is required for a driving licence with face match on\n${ENGINE_USAGE}\n`, exitCode: 1 };
  }
  const timings: Timings = {};
  const started = performance.now();
  const selfies = selfie ? [new Uint8Array(readFileSync(selfie))] : [];
  const findings = (await runJob(
    mode === 'L1'
      ? { kind: 'age_estimation', selfies }
      : {
          kind: 'document',
          documentType,
          document: new Uint8Array(readFileSync(document!)),
          // A licence's portrait is on its front (protocol needsDocumentFront): --document-front.
          documentFront: documentFront ? new Uint8Array(readFileSync(documentFront)) : null,
          selfies,
          faceMatch: policy.faceMatchEnabled,
        },
    timings,
  )) as EngineFindings;
  const decision = findings.kind === 'age_estimation' ? decideAgeEstimation(findings.frames, policy) : decideDocument(findings, policy, now);
  const output = { decision, policy, scores: scoresOf(findings), timings: { ...timings, total: Math.round(performance.now() - started) } };
  return { stdout: `${JSON.stringify(output, null, 2)}\n`, stderr: '', exitCode: 0 };
}

/** Measurements without descriptors (long and biometric) and without document fields beyond dates. */
export function scoresOf(findings: EngineFindings): Record<string, unknown> {
  const strip = (frame: unknown) => {
    if (!frame || typeof frame !== 'object' || !('face' in frame)) return frame;
    const { face, faceCount } = frame as { face: Record<string, unknown> | null; faceCount: number };
    if (!face) return { faceCount, face: null };
    const { descriptor, embedding, landmarks, ...rest } = face;
    const size = (vector: unknown) => (vector ? `${(vector as unknown[]).length}-d` : undefined);
    return { faceCount, face: rest, descriptor: size(descriptor), embedding: size(embedding) };
  };
  if (findings.kind === 'age_estimation') return { frames: findings.frames.map(strip) };
  return { reading: findings.reading, portrait: strip(findings.portrait), frames: findings.frames.map(strip) };
}
