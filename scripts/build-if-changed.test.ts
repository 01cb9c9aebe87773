import { afterEach, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputsHash, staleReason, writeStamp } from './build-if-changed';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function scratch() {
  const root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  roots.push(root);
  mkdirSync(join(root, 'src/nested'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;');
  writeFileSync(join(root, 'src/nested/b.ts'), 'export const b = 2;');
  writeFileSync(join(root, 'dist/out.js'), '//built');
  return { root, bundle: { inputs: ['src', 'config.json'], outputs: ['out.js'], dist: 'dist' } };
}

test('a bundle is rebuilt until stamped, then only when an input changes or an output disappears', () => {
  const { root, bundle } = scratch();
  expect(staleReason(root, bundle, inputsHash(root, bundle))).toBe('no build stamp');
  writeStamp(root, bundle, inputsHash(root, bundle));
  expect(staleReason(root, bundle, inputsHash(root, bundle))).toBeNull();

  writeFileSync(join(root, 'src/nested/b.ts'), 'export const b = 3;');
  expect(staleReason(root, bundle, inputsHash(root, bundle))).toBe('sources changed');
  writeStamp(root, bundle, inputsHash(root, bundle));

  // A new input file (config.json did not exist) and a renamed one both count.
  writeFileSync(join(root, 'config.json'), '{}');
  expect(staleReason(root, bundle, inputsHash(root, bundle))).toBe('sources changed');
  writeStamp(root, bundle, inputsHash(root, bundle));

  rmSync(join(root, 'dist/out.js'));
  expect(staleReason(root, bundle, inputsHash(root, bundle))).toBe('dist/out.js is missing');
});
