/**
 * While a redelivery of an endpoint runs, its progress is read again on a timer (issue 25, item 11:
 * the poll apart from the screen that shows it). The screen hands every fresh copy of the endpoint
 * to follow(); the poll starts when a redelivery has events left to send, stops when it has none,
 * and stops with the screen.
 */
import type { Endpoint } from '@ageverify/protocol';
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** While a redelivery runs, its progress is read again this often. */
export const REDELIVERY_POLL_MS = 2_000;

/** A redelivery is running while it has sent fewer events than it took on. */
export function redeliveryRunning(endpoint: Pick<Endpoint, 'redelivery'>): boolean {
  return endpoint.redelivery !== null && endpoint.redelivery.sent < endpoint.redelivery.total;
}

export class RedeliveryPoll implements ReactiveController {
  private timer: ReturnType<typeof setInterval> | null = null;

  /** `tick` reads the endpoint again and hands it to follow(); a tick that fails is retried at the next one. */
  constructor(
    host: ReactiveControllerHost,
    private readonly tick: () => void,
    private readonly everyMs = REDELIVERY_POLL_MS,
  ) {
    host.addController(this);
  }

  /** The timer runs: a redelivery was running at the last look. */
  get polling(): boolean {
    return this.timer !== null;
  }

  /** Starts polling when this copy of the endpoint shows a redelivery running (once), stops when it shows none. */
  follow(endpoint: Pick<Endpoint, 'redelivery'>): void {
    const running = redeliveryRunning(endpoint);
    if (running && this.timer === null) this.timer = setInterval(this.tick, this.everyMs);
    if (!running) this.stop();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** A screen that is gone asks for nothing. */
  hostDisconnected(): void {
    this.stop();
  }
}
