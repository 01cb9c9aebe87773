/**
 * The camera stream's life cycle for <age-verify-camera> (issue 25, item 11: the stream apart from
 * the screen that shows it). Opens the camera when the screen connects, stops it when the screen
 * leaves and whenever the page is hidden (a camera light must never stay on behind another tab),
 * and reports a camera that cannot be used. A request answered after the screen left, or after
 * start() was called again, is dropped and its tracks stopped.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CameraProblem } from './live-flow';

/** Camera life cycle shown by the element; `failed` is reported to the owner, which shows the next step. */
export const CameraState = {
  starting: 'starting',
  live: 'live',
  capturing: 'capturing',
  paused: 'paused',
  failed: 'failed',
} as const;
export type CameraState = (typeof CameraState)[keyof typeof CameraState];

/** What the stream needs of the page; the browser's by default, a fake in tests. */
export interface CameraEnvironment {
  readonly mediaDevices: Pick<MediaDevices, 'getUserMedia'> | undefined;
  readonly document: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;
}

/** The parts of the <video> element the stream is shown in. */
export type PreviewVideo = Pick<HTMLVideoElement, 'srcObject' | 'play' | 'dataset'>;

export interface CameraStreamOptions {
  /** The screen's <video>, once rendered. */
  readonly video: () => PreviewVideo | null | undefined;
  /** The camera to ask for (front for a selfie, rear for a document), read at every start. */
  readonly constraints: () => MediaStreamConstraints;
  /** The camera cannot be used: the state is `failed` and the stream stopped. */
  readonly onProblem: (reason: CameraProblem) => void;
  readonly environment?: CameraEnvironment;
}

const browser = (): CameraEnvironment => ({ mediaDevices: navigator.mediaDevices, document });

export class CameraStream implements ReactiveController {
  private current: CameraState = CameraState.starting;
  private stream: MediaStream | null = null;
  private startRequest = 0;
  private readonly environment: CameraEnvironment;
  private readonly onVisibility = () => {
    if (this.environment.document.hidden && this.stream) {
      this.stop();
      if (this.current !== CameraState.failed) this.state = CameraState.paused;
    }
  };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CameraStreamOptions,
  ) {
    this.environment = options.environment ?? browser();
    host.addController(this);
  }

  get state(): CameraState {
    return this.current;
  }

  /** The screen moves the state on while it captures (`capturing`); every change renders the screen again. */
  set state(state: CameraState) {
    this.current = state;
    this.host.requestUpdate();
  }

  hostConnected(): void {
    this.environment.document.addEventListener('visibilitychange', this.onVisibility);
    void this.start();
  }

  hostDisconnected(): void {
    this.environment.document.removeEventListener('visibilitychange', this.onVisibility);
    this.cancel();
  }

  /** Asks for the camera and shows it; also "Turn the camera back on". */
  async start(): Promise<void> {
    const request = ++this.startRequest;
    this.state = CameraState.starting;
    const mediaDevices = this.environment.mediaDevices;
    if (!mediaDevices?.getUserMedia) {
      this.fail(CameraProblem.unavailable);
      return;
    }
    let stream: MediaStream;
    try {
      stream = await mediaDevices.getUserMedia(this.options.constraints());
    } catch (error) {
      if (request !== this.startRequest) return;
      const name = error instanceof DOMException ? error.name : '';
      this.fail(name === 'NotAllowedError' || name === 'SecurityError' ? CameraProblem.denied : CameraProblem.unavailable);
      return;
    }
    // The element left the page, or the page was hidden, while the browser was asking.
    if (request !== this.startRequest || this.environment.document.hidden) {
      for (const track of stream.getTracks()) track.stop();
      if (request === this.startRequest) this.state = CameraState.paused;
      return;
    }
    this.stream = stream;
    await this.host.updateComplete;
    const video = this.options.video();
    if (!video) return;
    video.srcObject = stream;
    try {
      await video.play();
    } catch {
      // Autoplay of a muted inline video is allowed everywhere; a refusal means the stream ended.
    }
    if (request !== this.startRequest) return;
    this.state = CameraState.live;
    video.dataset.live = 'true';
  }

  /** Stops the camera and empties the preview. */
  stop(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    const video = this.options.video();
    if (video) {
      video.srcObject = null;
      delete video.dataset.live;
    }
  }

  /** Stops the camera and drops an answer still to come from the browser. */
  cancel(): void {
    this.startRequest++;
    this.stop();
  }

  private fail(reason: CameraProblem): void {
    this.state = CameraState.failed;
    this.stop();
    this.options.onProblem(reason);
  }
}
