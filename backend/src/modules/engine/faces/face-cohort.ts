/**
 * Face match's cohort (issue 21, decision 0068): the two descriptors of 212 photos of 103 other
 * people (the Face Research Lab London Set, CC-BY 4.0; backend/models/face-cohort/README.md), against
 * which each face is compared to learn how alike strangers look to it. Both models place the faces
 * of groups they saw little of in training close together: a stranger pair of two Black people
 * scored as high as one person on two occasions (5.4 % of such pairs accepted, 0 % of every other
 * group). A face's scores against the cohort say how crowded its part of the descriptor space is;
 * a pair's score in units of both faces' cohort spreads (symmetric score normalisation, "s-norm")
 * is what face-match.ts adds to the raw thresholds.
 *
 * The file is built by scripts/faces/face-cohort.ts: a JSON header line (people and sizes), then the
 * descriptors as little-endian float32, faceres then recognition for each photo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CohortStats, closeness, cosineSimilarity } from './face-match';

export type { CohortStats };

export interface FaceCohort {
  /** The person each photo shows (a folder name of the set), so an evaluation can leave them out. */
  people: readonly string[];
  faceres: readonly Float32Array[];
  recognition: readonly Float32Array[];
}

export const FACE_COHORT_FILE = join(import.meta.dir, '..', '..', '..', '..', 'models', 'face-cohort', 'london.cohort');

export function parseFaceCohort(bytes: Uint8Array): FaceCohort {
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) throw new Error('face cohort: no header line');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline))) as { people: string[]; faceres: number; recognition: number };
  const width = header.faceres + header.recognition;
  const body = bytes.subarray(newline + 1);
  if (body.byteLength !== header.people.length * width * 4) throw new Error(`face cohort: expected ${header.people.length} × ${width} floats`);
  const floats = new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  return {
    people: header.people,
    faceres: header.people.map((_, i) => floats.subarray(i * width, i * width + header.faceres)),
    recognition: header.people.map((_, i) => floats.subarray(i * width + header.faceres, (i + 1) * width)),
  };
}

export function loadFaceCohort(path = FACE_COHORT_FILE): FaceCohort {
  return parseFaceCohort(readFileSync(path));
}

/** Each cohort photo's scores against one face, per model (faceres cosine, recognition closeness). */
export function cohortScores(cohort: FaceCohort, faceres: readonly number[], recognition: readonly number[]): { faceres: number[]; recognition: number[] } {
  return {
    faceres: cohort.faceres.map((other) => cosineSimilarity(faceres, other)),
    recognition: cohort.recognition.map((other) => closeness(recognition, other)),
  };
}

/**
 * Mean and spread of a face's cohort scores, leaving out the photos of `leaveOut` (an evaluation on
 * the cohort's own people compares no face with photos of itself or of the other face of the pair).
 */
export function cohortStats(
  cohort: FaceCohort,
  scores: { faceres: readonly number[]; recognition: readonly number[] },
  leaveOut: readonly string[] = [],
): CohortStats {
  const kept = (values: readonly number[]) => values.filter((_, i) => !leaveOut.includes(cohort.people[i]!));
  return { faceres: meanAndSpread(kept(scores.faceres)), recognition: meanAndSpread(kept(scores.recognition)) };
}

function meanAndSpread(values: readonly number[]): { mean: number; spread: number } {
  if (values.length < 2) throw new Error('face cohort: fewer than two photos left');
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return { mean, spread: Math.sqrt(variance) };
}
