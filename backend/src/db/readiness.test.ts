import { describe, expect, test } from 'bun:test';
import { createReadiness } from './readiness';

describe('readiness', () => {
  test('unknown until probed, then the probe result', async () => {
    const readiness = createReadiness(async () => 1);
    expect(readiness.lastKnown()).toBe('unknown');
    expect(await readiness.check()).toBe('up');
    expect(readiness.lastKnown()).toBe('up');
  });

  test('a failing probe is down, never a throw', async () => {
    const readiness = createReadiness(async () => {
      throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    });
    expect(await readiness.check()).toBe('down');
  });

  test('a probe that never answers is down after the deadline', async () => {
    const readiness = createReadiness(() => new Promise(() => {}), { timeoutMs: 5 });
    expect(await readiness.check()).toBe('down');
  });

  test('answers are cached for cacheMs, then probed again', async () => {
    let time = 0;
    let probes = 0;
    let fail = false;
    const readiness = createReadiness(
      async () => {
        probes++;
        if (fail) throw new Error('down');
      },
      { cacheMs: 1_000, now: () => time },
    );
    expect(await readiness.check()).toBe('up');
    fail = true;
    time = 999;
    expect(await readiness.check()).toBe('up');
    expect(probes).toBe(1);
    time = 1_000;
    expect(await readiness.check()).toBe('down');
    expect(probes).toBe(2);
  });

  test('concurrent checks share one probe', async () => {
    let probes = 0;
    const readiness = createReadiness(async () => {
      probes++;
    });
    await Promise.all([readiness.check(), readiness.check(), readiness.check()]);
    expect(probes).toBe(1);
  });
});
