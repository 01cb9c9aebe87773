import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { SessionStatusResult } from '@ageverify/protocol';
import { fetchSessionStatus, type ApiResult } from './api';
import type { AgeVerifyHandoff } from './age-verify-handoff';
import { HandoffPoller } from './handoff-poller';
import { isHandoffCredentials, type SessionCredentials } from './launch-params';

/** What the controller needs from <age-verify-app>. */
export interface HandoffControllerOptions {
  /** The page's credentials; only the desktop's sessionToken may poll. */
  credentials(): SessionCredentials | null;
  /** Whether the current screen carries the panel (the desktop's intro and check, with a link). */
  isShown(): boolean;
  /** The poller saw the session end (the phone finished, or the deadline passed). */
  onFinish(status: SessionStatusResult): void;
}

/**
 * Desktop side of the QR handoff for <age-verify-app> (spec "QR handoff"): the checked link,
 * whether its <age-verify-handoff> panel is open, the polling of POST /verify/status while it is
 * (handoff-poller.ts), and focus on the panel as it opens. The panel is orthogonal to the app's
 * view; the app decides which screens carry it and what a finished session means.
 */
export class HandoffController implements ReactiveController {
  /** The checked handoff link of the loaded session, or null (phone, blocked, not same-origin). */
  url: string | null = null;
  /** The link points at a loopback address this page is not on: a phone cannot reach it. */
  unreachable = false;
  /** The panel is open; /verify/status is polled while a screen carries it. */
  private open = false;
  /** Polling gave up (the server refused it); the panel says the page will not move on by itself. */
  private pollStopped = false;
  /** The panel has just opened: focus its heading once it is drawn. */
  private focusPending = false;
  private readonly poller: HandoffPoller;
  private readonly onOpen = () => this.openPanel();

  constructor(
    private readonly host: ReactiveControllerHost & { readonly renderRoot: ParentNode },
    private readonly options: HandoffControllerOptions,
  ) {
    this.poller = new HandoffPoller({
      fetchStatus: () => this.fetchStatus(),
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
      isHidden: () => document.hidden,
      onVisibilityChange: (listener) => {
        document.addEventListener('visibilitychange', listener);
        return () => document.removeEventListener('visibilitychange', listener);
      },
      onFinish: (status) => options.onFinish(status),
      onGiveUp: () => {
        this.pollStopped = true;
        host.requestUpdate();
      },
    });
    host.addController(this);
  }

  hostUpdated(): void {
    // Polling belongs to the screens that show the QR panel; any other screen ends it.
    if (this.poller.active && !this.options.isShown()) this.poller.stop();
    if (this.focusPending) {
      this.focusPending = false;
      const panel = this.host.renderRoot.querySelector<AgeVerifyHandoff>('age-verify-handoff');
      void panel?.updateComplete.then(() => panel.focusHeading());
    }
  }

  hostDisconnected(): void {
    this.poller.stop();
  }

  /** The session ended here first: no more polling. */
  stop(): void {
    this.poller.stop();
  }

  /** The panel below the screen, or nothing on screens that do not carry it. */
  render(): TemplateResult | typeof nothing {
    if (!this.options.isShown()) return nothing;
    return html`<age-verify-handoff
      data-testid="handoff"
      .url=${this.url}
      .unreachable=${this.unreachable}
      .open=${this.open}
      .pollStopped=${this.pollStopped}
      @verify-handoff-open=${this.onOpen}
    ></age-verify-handoff>`;
  }

  /** "Continue on your phone": show the QR code and start asking whether the phone has finished. */
  private openPanel(): void {
    if (!this.options.isShown()) return;
    if (!this.open) this.focusPending = true;
    this.open = true;
    this.pollStopped = false;
    this.poller.start();
    this.host.requestUpdate();
  }

  private fetchStatus(): Promise<ApiResult<SessionStatusResult>> {
    const credentials = this.options.credentials();
    if (!credentials || isHandoffCredentials(credentials)) {
      // Cannot happen (the phone never polls); answer like the server would, so polling gives up.
      return Promise.resolve({ ok: false, failure: { kind: 'http', status: 401, message: null } });
    }
    return fetchSessionStatus(credentials.sessionId, credentials.sessionToken);
  }
}
