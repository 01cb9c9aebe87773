import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirPermissionError, restrictTree, secureDataDir } from './data-dir-permissions';

const root = mkdtempSync(join(tmpdir(), 'av-perm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('secureDataDir', () => {
  test('creates a missing folder (and its parents) 0700 and sets an owner-only umask', () => {
    const dir = join(root, 'new', 'data');
    const before = process.umask();
    try {
      secureDataDir(dir);
      expect(modeOf(dir)).toBe(0o700);
      expect(process.umask()).toBe(0o077);
      writeFileSync(join(dir, 'file'), 'x');
      expect(modeOf(join(dir, 'file'))).toBe(0o600);
    } finally {
      process.umask(before);
    }
  });

  test.each([0o755, 0o750, 0o705, 0o770, 0o777, 0o701, 0o710])('refuses an existing folder with mode %o, saying how to fix it', (mode) => {
    const dir = join(root, `open-${mode.toString(8)}`);
    mkdirSync(dir);
    chmodSync(dir, mode);
    const before = process.umask();
    try {
      expect(() => secureDataDir(dir)).toThrow(DataDirPermissionError);
      expect(() => secureDataDir(dir)).toThrow(
        `is accessible to other users (mode ${mode.toString(8)}); it holds secrets and the database. Restrict it to the service's user with: chmod -R go-rwx ${dir}`,
      );
      // Refused, not silently changed.
      expect(modeOf(dir)).toBe(mode);
    } finally {
      process.umask(before);
    }
  });

  test('accepts an existing owner-only folder', () => {
    const dir = join(root, 'private');
    mkdirSync(dir, { mode: 0o700 });
    const before = process.umask();
    try {
      expect(() => secureDataDir(dir)).not.toThrow();
    } finally {
      process.umask(before);
    }
  });

  test('refuses a path that is a file', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    chmodSync(file, 0o600);
    const before = process.umask();
    try {
      expect(() => secureDataDir(file)).toThrow();
    } finally {
      process.umask(before);
    }
  });
});

describe('restrictTree', () => {
  test('takes group and other access off every file and folder below, keeping the owner bits', () => {
    const dir = join(root, 'tree');
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'f'), '');
    chmodSync(join(dir, 'a', 'b', 'f'), 0o666);
    writeFileSync(join(dir, 'x'), '');
    chmodSync(join(dir, 'x'), 0o754);
    chmodSync(join(dir, 'a'), 0o777);
    restrictTree(dir);
    expect(modeOf(join(dir, 'a'))).toBe(0o700);
    expect(modeOf(join(dir, 'a', 'b', 'f'))).toBe(0o600);
    expect(modeOf(join(dir, 'x'))).toBe(0o700);
  });
});
