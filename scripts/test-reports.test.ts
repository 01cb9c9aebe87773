import { describe, expect, test } from 'bun:test';
import { junitCounts, playwrightCounts } from './test-reports';

describe('junitCounts', () => {
  test.each([
    [
      'bun 1.4 report',
      '<?xml version="1.0"?>\n<testsuites name="bun test" tests="5" assertions="3" failures="1" skipped="2" time="0.01">',
      { passed: 2, failed: 1, skipped: 2 },
    ],
    ['errors attribute', '<testsuites tests="4" failures="1" errors="1" skipped="0">', { passed: 2, failed: 2, skipped: 0 }],
    ['no tests', '<testsuites name="bun test" tests="0" failures="0" skipped="0">', { passed: 0, failed: 0, skipped: 0 }],
    [
      'nested suites do not count twice',
      '<testsuites tests="3" failures="0" skipped="0"><testsuite tests="3" failures="0" skipped="0">',
      { passed: 3, failed: 0, skipped: 0 },
    ],
  ])('%s', (_name, xml, expected) => {
    expect(junitCounts(xml)).toEqual(expected);
  });

  test('no <testsuites> element is no report', () => {
    expect(junitCounts('')).toBeNull();
    expect(junitCounts('<testsuite tests="1">')).toBeNull();
  });
});

describe('playwrightCounts', () => {
  test.each([
    ['all passed', { stats: { expected: 10, unexpected: 0, flaky: 0, skipped: 0 }, errors: [] }, { passed: 10, failed: 0, skipped: 0 }],
    ['failures, flaky and skipped', { stats: { expected: 3, unexpected: 2, flaky: 1, skipped: 4 }, errors: [] }, { passed: 4, failed: 2, skipped: 4 }],
    [
      'global setup failed',
      { stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 }, errors: [{ message: 'boom' }] },
      { passed: 0, failed: 1, skipped: 0 },
    ],
  ])('%s', (_name, report, expected) => {
    expect(playwrightCounts(JSON.stringify(report))).toEqual(expected);
  });

  test('unreadable reports are null', () => {
    expect(playwrightCounts('not json')).toBeNull();
    expect(playwrightCounts('{}')).toBeNull();
  });
});
