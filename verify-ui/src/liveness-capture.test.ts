import { describe, expect, test } from 'bun:test';
import { CHECK_LIMITS, LIVENESS_CAPTURE, type LivenessChallenge } from '@ageverify/protocol';
import { CAPTURE_TIMING, type CaptureClock, type CapturePhase, captureChallenge, capturePlan, frameTimes, selfieStepsField } from './liveness-capture';

const challenge = (moves: LivenessChallenge['moves']): LivenessChallenge => ({ challengeId: 'chl_1', moves, expiresAt: '2026-11-25T12:00:00.000Z' });

/** A clock moved only by the capture's own waits: time passes exactly as the plan says. */
function manualClock(): CaptureClock & { readonly waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    wait: async (ms, signal) => {
      if (signal?.aborted) throw new Error('aborted');
      waits.push(ms);
      now += ms;
    },
  };
}

describe('capturePlan (protocol/src/liveness.ts LIVENESS_CAPTURE)', () => {
  test('left then right: look (step 0), left (step 1), back, right (step 2)', () => {
    const plan = capturePlan(['left', 'right']);
    expect(plan.map((phase) => [phase.prompt, phase.step, phase.move])).toEqual([
      ['look', 0, null],
      ['left', 1, 'left'],
      ['back', null, null],
      ['right', 2, 'right'],
    ]);
  });
  test('the server order is kept: right then left', () =>
    expect(capturePlan(['right', 'left']).map((phase) => phase.move)).toEqual([null, 'right', null, 'left']));
  test('frames per phase: the baseline, then framesPerMove per move, none while looking back', () => {
    const plan = capturePlan(['left', 'right']);
    expect(plan.map((phase) => phase.frameAtMs.length)).toEqual([
      LIVENESS_CAPTURE.baselineFrames,
      LIVENESS_CAPTURE.framesPerMove,
      0,
      LIVENESS_CAPTURE.framesPerMove,
    ]);
    // Two moves fill the submission's limit exactly.
    expect(plan.reduce((sum, phase) => sum + phase.frameAtMs.length, 0)).toBe(CHECK_LIMITS.maxSelfieFrames);
  });
  test('a move lasts LIVENESS_CAPTURE.moveMs and its frames fall in its later part, inside it', () => {
    const move = capturePlan(['left'])[1] as CapturePhase;
    expect(move.durationMs).toBe(LIVENESS_CAPTURE.moveMs);
    expect(move.frameAtMs[0]).toBeGreaterThanOrEqual(LIVENESS_CAPTURE.moveMs * 0.4);
    expect(move.frameAtMs.at(-1)).toBeLessThan(LIVENESS_CAPTURE.moveMs);
    expect([...move.frameAtMs].sort((a, b) => a - b)).toEqual(move.frameAtMs);
    expect(new Set(move.frameAtMs).size).toBe(move.frameAtMs.length);
  });
  test('a challenge without moves is refused', () => expect(() => capturePlan([])).toThrow(/at least one move/));
});

describe('frameTimes', () => {
  test('three frames over 3000 ms: 45 %, 67.5 %, 90 %', () => expect(frameTimes(3, 3000)).toEqual([1350, 2025, 2700]));
  test('two frames of the baseline', () =>
    expect(frameTimes(2, CAPTURE_TIMING.lookMs)).toEqual([CAPTURE_TIMING.lookMs * 0.45, CAPTURE_TIMING.lookMs * 0.9].map(Math.round)));
  test('one frame: at the end of the later part', () => expect(frameTimes(1, 1000)).toEqual([900]));
});

describe('captureChallenge', () => {
  test('tags every frame with its step, in capture order, and shows each phase before its frames', async () => {
    const clock = manualClock();
    const events: string[] = [];
    let taken = 0;
    const result = await captureChallenge({
      challenge: challenge(['right', 'left']),
      clock,
      grab: async () => {
        taken++;
        events.push(`frame@${clock.now()}`);
        return new Blob([String(taken)], { type: 'image/jpeg' });
      },
      onPhase: (phase, index, phases) => events.push(`${index + 1}/${phases.length}:${phase.prompt}@${clock.now()}`),
    });
    expect(result.challengeId).toBe('chl_1');
    expect(result.steps).toEqual([0, 0, 1, 1, 1, 2, 2, 2]);
    expect(selfieStepsField(result.steps)).toBe('0,0,1,1,1,2,2,2');
    expect(await Promise.all(result.frames.map((frame) => frame.text()))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    const look = CAPTURE_TIMING.lookMs;
    const move = LIVENESS_CAPTURE.moveMs;
    const rightStart = look;
    const backStart = look + move;
    const leftStart = backStart + CAPTURE_TIMING.backMs;
    expect(events).toEqual([
      '1/4:look@0',
      ...frameTimes(2, look).map((at) => `frame@${at}`),
      `2/4:right@${rightStart}`,
      ...frameTimes(3, move).map((at) => `frame@${rightStart + at}`),
      `3/4:back@${backStart}`,
      `4/4:left@${leftStart}`,
      ...frameTimes(3, move).map((at) => `frame@${leftStart + at}`),
    ]);
  });

  test('a slow frame does not push the next ones later: times are kept from the phase start', async () => {
    let now = 0;
    const clock: CaptureClock = {
      now: () => now,
      wait: async (ms) => {
        now += ms;
      },
    };
    const at: number[] = [];
    await captureChallenge({
      challenge: challenge(['left']),
      clock,
      grab: async () => {
        at.push(now);
        now += 200; // encoding the JPEG takes 200 ms
        return new Blob(['x']);
      },
      onPhase: () => {},
    });
    const baseline = frameTimes(2, CAPTURE_TIMING.lookMs);
    // The baseline's last frame ends 200 ms after it was taken, past the phase's end: the move starts then.
    const moveStart = Math.max(CAPTURE_TIMING.lookMs, (baseline.at(-1) as number) + 200);
    expect(at).toEqual([...baseline, ...frameTimes(3, LIVENESS_CAPTURE.moveMs).map((time) => moveStart + time)]);
  });

  test('a frame that cannot be taken (the stream ended) ends the capture with no result', async () => {
    let calls = 0;
    const capture = captureChallenge({
      challenge: challenge(['left', 'right']),
      clock: manualClock(),
      grab: async () => {
        calls++;
        if (calls === 3) throw new Error('the stream ended');
        return new Blob(['x']);
      },
      onPhase: () => {},
    });
    await expect(capture).rejects.toThrow('the stream ended');
    expect(calls).toBe(3);
  });

  test('an aborted capture stops at its next wait', async () => {
    const abort = new AbortController();
    const phases: string[] = [];
    const capture = captureChallenge({
      challenge: challenge(['left', 'right']),
      clock: manualClock(),
      grab: async () => new Blob(['x']),
      onPhase: (phase) => {
        phases.push(phase.prompt);
        if (phase.prompt === 'left') abort.abort();
      },
      signal: abort.signal,
    });
    await expect(capture).rejects.toThrow('aborted');
    expect(phases).toEqual(['look', 'left']);
  });
});
