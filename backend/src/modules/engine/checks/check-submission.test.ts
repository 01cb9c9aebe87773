import { describe, expect, test } from 'bun:test';
import { AppError } from '../../../errors/app-error';
import { readCheckSubmission } from './check-submission';

const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
function request(fields: Record<string, string>, parts: Record<string, number>): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, count] of Object.entries(parts)) for (let i = 0; i < count; i++) form.append(name, new Blob([jpeg]), `${name}.jpg`);
  return new Request('http://localhost/api/v1/verify/checks', { method: 'POST', body: form });
}
async function problems(fields: Record<string, string>, parts: Record<string, number>): Promise<string[]> {
  try {
    await readCheckSubmission(request(fields, parts), '/api/v1/verify/checks');
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return [String(error.message)];
  }
}

describe('readCheckSubmission: the documentFront part', () => {
  test('accepted with a driving licence document check', async () => {
    expect(await problems({ sessionId: 's', check: 'document', documentType: 'driving_licence' }, { document: 1, documentFront: 1 })).toEqual([]);
  });
  test.each([
    ['a passport document check', { sessionId: 's', check: 'document', documentType: 'passport' }, { document: 1, documentFront: 1 }],
    ['an age estimation check', { sessionId: 's', check: 'age_estimation' }, { selfie: 1, documentFront: 1 }],
    // The documentType of a licence does not make a front acceptable on a selfie check.
    ['an age estimation check naming a licence', { sessionId: 's', check: 'age_estimation', documentType: 'driving_licence' }, { selfie: 1, documentFront: 1 }],
  ])('refused with %s', async (_name, fields, parts) => {
    const [message] = await problems(fields, parts);
    expect(message).toMatch(/no documentFront part unless check is document and documentType is driving_licence/);
  });
});
