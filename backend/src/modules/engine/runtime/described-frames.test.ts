/** Which selfie frames get a descriptor (engine-worker.ts describedFrames): what the decisions compare, no more. */
import { describe, expect, test } from 'bun:test';
import { describedFrames } from './engine-worker';
import type { FrameFindings } from '../model';

const at = (yaw: number): FrameFindings => ({ faceCount: 1, face: { yaw } as never });
const none: FrameFindings = { faceCount: 0, face: null };

describe('describedFrames', () => {
  test('every frame looking at the camera, and per move the frame turned farthest from them', () => {
    const frames = [at(1), at(-1), at(-5), at(-22), at(-14), at(8), at(25), at(19)];
    expect(describedFrames(frames, [0, 0, 1, 1, 1, 2, 2, 2])).toEqual([0, 1, 3, 6]);
  });

  test('the farthest either way: a turn the wrong way is described and then refused as not followed', () => {
    expect(describedFrames([at(0), at(0), at(-3), at(30), at(2)], [0, 0, 1, 1, 1])).toEqual([0, 1, 3]);
  });

  test('frames without a face are never picked; a step with none has nothing described', () => {
    expect(describedFrames([at(0), none, none, at(20)], [0, 1, 1, 2])).toEqual([0, 3]);
  });
});
