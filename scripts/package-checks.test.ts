import { describe, expect, test } from 'bun:test';
import { fileListProblems, manifestProblems, PACKAGES } from './package-checks';

describe('manifestProblems', () => {
  const exports = { '.': './dist/index.js' };
  test.each([
    ['a self-contained public package', { name: 'p', exports }, []],
    [
      'a workspace: dependency',
      { name: 'p', exports, dependencies: { '@ageverify/protocol': 'workspace:*' } },
      ['it refers to a workspace: version, which npm cannot install', 'it has dependencies (@ageverify/protocol); the package must be self-contained'],
    ],
    [
      'a workspace: devDependency still leaks into the manifest',
      { name: 'p', exports, devDependencies: { x: 'workspace:^' } },
      ['it refers to a workspace: version, which npm cannot install'],
    ],
    ['devDependencies from the registry are fine', { name: 'p', exports, devDependencies: { standardwebhooks: '1.1.1' } }, []],
    ['private', { name: 'p', exports, private: true }, ['it is private, so npm publish refuses it']],
    [
      'a registry dependency',
      { name: 'p', exports, peerDependencies: { react: '19' } },
      ['it has peerDependencies (react); the package must be self-contained'],
    ],
    ['no exports', { name: 'p', main: 'src/index.ts' }, ['it has no "exports"']],
  ] as const)('%s', (_, manifest, expected) => {
    expect(manifestProblems(manifest as Record<string, unknown>)).toEqual([...expected]);
  });
});

describe('fileListProblems', () => {
  test('names every extra and every missing file', () => {
    expect(fileListProblems(['README.md', 'src/index.ts', 'package.json'], ['README.md', 'dist/index.js', 'package.json'])).toEqual([
      'unexpected file src/index.ts',
      'missing file dist/index.js',
    ]);
  });

  test('no source, test or tsconfig is among the expected files', () => {
    for (const { files } of Object.values(PACKAGES)) {
      expect(files.filter((file) => /(^|\/)src\/|\.test\.|tsconfig/.test(file))).toEqual([]);
    }
  });
});
