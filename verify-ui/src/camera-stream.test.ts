import { describe, expect, test } from 'bun:test';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CameraState, CameraStream, type CameraEnvironment, type PreviewVideo } from './camera-stream';
import type { CameraProblem } from './live-flow';

function fakeHost() {
  const host = {
    controllers: [] as ReactiveController[],
    updates: 0,
    addController(controller: ReactiveController) {
      host.controllers.push(controller);
    },
    removeController() {},
    requestUpdate() {
      host.updates++;
    },
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost & Record<string, unknown>;
  return host;
}

function fakeStream() {
  const track = {
    stopped: false,
    stop() {
      track.stopped = true;
    },
  };
  return { track, stream: { getTracks: () => [track] } as unknown as MediaStream };
}

/** A page whose camera answers when `answer` is called, and that can be hidden. */
function fakePage(options: { camera?: boolean } = {}) {
  const listeners = new Set<() => void>();
  const requests: MediaStreamConstraints[] = [];
  let answer: (result: MediaStream | Error) => void = () => {};
  const page = {
    hidden: false,
    requests,
    listeners,
    answer: (result: MediaStream | Error) => answer(result),
    hide() {
      page.hidden = true;
      for (const listener of listeners) listener();
    },
    environment: {
      mediaDevices:
        options.camera === false
          ? undefined
          : {
              getUserMedia: (constraints?: MediaStreamConstraints) => {
                requests.push(constraints ?? {});
                return new Promise<MediaStream>((resolve, reject) => {
                  answer = (result) => {
                    if (result instanceof Error) reject(result);
                    else resolve(result);
                  };
                });
              },
            },
      document: {
        get hidden() {
          return page.hidden;
        },
        addEventListener: (_type: string, listener: () => void) => void listeners.add(listener),
        removeEventListener: (_type: string, listener: () => void) => void listeners.delete(listener),
      },
    } as unknown as CameraEnvironment,
  };
  return page;
}

function fakeVideo() {
  const video = { srcObject: null as MediaProvider | null, dataset: {} as DOMStringMap, play: async () => {} };
  return video satisfies PreviewVideo;
}

function setUp(options: { camera?: boolean } = {}) {
  const page = fakePage(options);
  const host = fakeHost();
  const video = fakeVideo();
  const problems: CameraProblem[] = [];
  const camera = new CameraStream(host, {
    video: () => video,
    constraints: () => ({ video: { facingMode: 'user' } }),
    onProblem: (reason) => problems.push(reason),
    environment: page.environment,
  });
  return { page, host, video, problems, camera };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the camera stream (issue 25, item 11)', () => {
  test('opens the camera asked for when its screen connects, and shows it in the preview', async () => {
    const { page, host, video, camera } = setUp();
    expect(host.controllers).toEqual([camera]);
    camera.hostConnected();
    expect(camera.state).toBe(CameraState.starting);
    expect(page.requests).toEqual([{ video: { facingMode: 'user' } }]);
    const { stream } = fakeStream();
    page.answer(stream);
    await settle();
    expect(camera.state).toBe(CameraState.live);
    expect(video.srcObject).toBe(stream as unknown as MediaProvider);
    expect(video.dataset.live).toBe('true');
    expect(host.updates).toBeGreaterThanOrEqual(2);
  });

  test('a refusal is reported as denied, any other failure or no camera API as unavailable', async () => {
    const denied = setUp();
    denied.camera.hostConnected();
    denied.page.answer(new DOMException('no', 'NotAllowedError'));
    await settle();
    expect(denied.camera.state).toBe(CameraState.failed);
    expect(denied.problems).toEqual(['denied']);

    const insecure = setUp();
    insecure.camera.hostConnected();
    insecure.page.answer(new DOMException('no', 'SecurityError'));
    await settle();
    expect(insecure.problems).toEqual(['denied']);

    const busy = setUp();
    busy.camera.hostConnected();
    busy.page.answer(new DOMException('in use', 'NotReadableError'));
    await settle();
    expect(busy.problems).toEqual(['unavailable']);

    const none = setUp({ camera: false });
    none.camera.hostConnected();
    expect(none.camera.state).toBe(CameraState.failed);
    expect(none.problems).toEqual(['unavailable']);
  });

  test('hiding the page stops the camera and pauses; start() turns it back on', async () => {
    const { page, video, camera } = setUp();
    camera.hostConnected();
    const first = fakeStream();
    page.answer(first.stream);
    await settle();
    page.hide();
    expect(first.track.stopped).toBe(true);
    expect(camera.state).toBe(CameraState.paused);
    expect(video.srcObject).toBeNull();
    expect(video.dataset.live).toBeUndefined();

    page.hidden = false;
    void camera.start();
    expect(camera.state).toBe(CameraState.starting);
    const second = fakeStream();
    page.answer(second.stream);
    await settle();
    expect(camera.state).toBe(CameraState.live);
    expect(second.track.stopped).toBe(false);
  });

  test('a camera granted while the page was hidden is stopped at once, and the screen pauses', async () => {
    const { page, video, camera } = setUp();
    camera.hostConnected();
    page.hidden = true;
    const { track, stream } = fakeStream();
    page.answer(stream);
    await settle();
    expect(track.stopped).toBe(true);
    expect(camera.state).toBe(CameraState.paused);
    expect(video.srcObject).toBeNull();
  });

  test('a camera granted after the screen left is stopped at once, and nothing listens any more', async () => {
    const { page, video, camera, problems } = setUp();
    camera.hostConnected();
    camera.hostDisconnected();
    expect(page.listeners.size).toBe(0);
    const { track, stream } = fakeStream();
    page.answer(stream);
    await settle();
    expect(track.stopped).toBe(true);
    expect(camera.state).toBe(CameraState.starting);
    expect(video.srcObject).toBeNull();

    // A refusal that arrives after cancel() is not reported either.
    const late = setUp();
    late.camera.hostConnected();
    late.camera.cancel();
    late.page.answer(new DOMException('no', 'NotAllowedError'));
    await settle();
    expect(late.problems).toEqual([]);
    expect(problems).toEqual([]);
  });
});
