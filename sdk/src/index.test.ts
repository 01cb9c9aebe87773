import { expect, test } from 'bun:test';
import * as sdk from './index';

test('the public API is exactly AgeVerify, AgeVerifyError, VERSION and create', () => {
  expect(Object.keys(sdk).sort()).toEqual(['AgeVerify', 'AgeVerifyError', 'VERSION', 'create']);
});

test('unbuilt sources report a development VERSION (the build injects the real one)', () => {
  expect(sdk.VERSION).toBe('0.0.0-dev');
});
