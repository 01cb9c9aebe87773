/**
 * The state of a form's submit or a button's action, the Lit way (issue 25, item 9): one controller
 * instead of a copy of busy / problem / try / finally in every screen. While an action runs, `busy`
 * is true (the screen disables its buttons); a failure leaves its message in `problem` (the screen
 * shows it as an alert). Superseded calls (latest-call.ts) show nothing: errorMessage() says so.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { errorMessage } from './screen-base';

export interface SubmitOptions {
  /**
   * Called after a failure, once the problem is set and before busy ends: screens that move focus
   * after an error (to the field, to the alert) wait for their update here. It sees every failure,
   * as the screens' own catch blocks did.
   */
  onError?: (error: unknown) => void | Promise<void>;
}

export interface SubmitControllerOptions extends SubmitOptions {
  /** The message shown for a failure, when a screen words some refusals itself (sign-in's 401 and 429). */
  message?: (error: unknown) => string;
}

export class SubmitController implements ReactiveController {
  private running = false;
  private shown: string | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: SubmitControllerOptions = {},
  ) {
    host.addController(this);
  }

  /** An action is running: its buttons are disabled. */
  get busy(): boolean {
    return this.running;
  }

  /** The message of the last failure, or null. Screens set it too, for a check of their own (two passwords that differ). */
  get problem(): string | null {
    return this.shown;
  }

  set problem(message: string | null) {
    this.shown = message;
    this.host.requestUpdate();
  }

  // Nothing to set up when the host connects; the hook makes this a ReactiveController in TypeScript's
  // eyes (an object with none of the optional hooks shares no property with the interface).
  hostConnected(): void {}

  /**
   * Runs `action` with busy set and the previous problem cleared. A failure does not reject: its
   * message goes to `problem` (an empty one for a superseded call, which shows nothing), then the
   * onError hook of this run, or else of the controller, runs. Busy ends last, whatever happened.
   */
  async run(action: () => Promise<void>, options: SubmitOptions = {}): Promise<void> {
    this.running = true;
    this.shown = null;
    this.host.requestUpdate();
    try {
      await action();
    } catch (error) {
      this.problem = (this.options.message ?? errorMessage)(error);
      await (options.onError ?? this.options.onError)?.(error);
    } finally {
      this.running = false;
      this.host.requestUpdate();
    }
  }
}
