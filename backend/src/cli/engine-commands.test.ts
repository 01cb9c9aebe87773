import { describe, expect, test } from 'bun:test';
import { engineCommand } from './engine-commands';

const now = new Date('2026-11-22T12:00:00Z');

describe('cli engine check: refusals (no model is loaded for these)', () => {
  test.each<[string, string[], RegExp]>([
    ['another engine command', ['engine', 'run'], /Usage: bun run cli engine check/],
    ['no mode', ['engine', 'check', '--selfie', 'x.jpg'], /--mode must be L1 or L2/],
    ['L1 without a selfie', ['engine', 'check', '--mode', 'L1'], /--selfie FILE is required with --mode L1/],
    ['L2 without a document', ['engine', 'check', '--mode', 'L2'], /--document FILE is required with --mode L2/],
    ['a bad challenge age', ['engine', 'check', '--mode', 'L1', '--selfie', 'x.jpg', '--challenge-age', 'old'], /--challenge-age must be a whole number/],
    [
      'an unknown document type',
      ['engine', 'check', '--mode', 'L2', '--document', 'x.jpg', '--document-type', 'library_card'],
      /--document-type must be one of/,
    ],
    [
      'a front with a passport',
      ['engine', 'check', '--mode', 'L2', '--document', 'x.jpg', '--document-front', 'y.jpg', '--document-type', 'passport'],
      /--document-front FILE is only for --document-type driving_licence/,
    ],
    [
      'a licence with face match on but no front',
      ['engine', 'check', '--mode', 'L2', '--document', 'x.png', '--document-type', 'driving_licence', '--selfie', 'x.jpg'],
      /--document-front FILE is required for a driving licence with face match on/,
    ],
  ])('%s', async (_, argv, message) => {
    const result = await engineCommand(argv, now);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
