import { expect, type Page } from '@playwright/test';
import { SDK_LAB_BINDING, SDK_LAB_PATH } from '../support/sdk-lab';
import { ReturnPage } from './return-page';
import type { SessionCreation } from './shop-page';

/** An AgeVerifyError as the lab page describes it. */
export interface LabError {
  name: string;
  code: string;
  message: string;
  retryAfterMs?: number;
  isError: boolean;
  isAgeVerifyError: boolean;
}

/** The first argument a callback got, its own keys, and how many arguments there were. */
export interface LabArgument {
  count: number;
  keys: string[];
  value: Record<string, unknown>;
}

export type LabVerifyResult = { ok: true; sessionId: string; verifyUrl: string; mode: 'redirect' | 'new-tab' } | { ok: false; error: LabError };

export type LabEvent =
  | { type: 'window.open'; url: string; target: string; features: string }
  | { type: 'complete'; argument: LabArgument }
  | { type: 'cancel'; argument: LabArgument }
  | { type: 'error'; error: LabError }
  | { type: 'verify-result'; result: LabVerifyResult }
  | { type: 'verify-threw'; error: LabError }
  | { type: 'verify-rejected'; error: LabError };

export type LabEventType = LabEvent['type'];

/** Which callbacks the lab passes to the constructor, and what onCancel returns. */
export interface LabHooks {
  onComplete?: boolean;
  onCancel?: boolean;
  onCancelReturns?: false;
  onError?: boolean;
}

const ALL_HOOKS: LabHooks = { onComplete: true, onCancel: true, onError: true };

/**
 * The SDK lab page (support/sdk-lab.ts): a merchant page that loads the SDK from the service and
 * constructs it with whatever options a spec gives. `events` collects what the SDK handed to the
 * page, across navigations, in order. The lab's origin also serves the merchant's /return page
 * (`returnUrl`, `returnPage`), which validates with the secret key.
 */
export class SdkLabPage {
  readonly events: LabEvent[] = [];
  /** The lab page's own address. */
  readonly url: string;
  /** The merchant return page on the lab's origin: a returnUrl from which the opener gets messages. */
  readonly returnUrl: string;
  readonly returnPage: ReturnPage;
  private exposed = false;

  constructor(
    readonly page: Page,
    sdkLabUrl: string,
    private readonly serviceUrl: string,
  ) {
    this.url = new URL(SDK_LAB_PATH, sdkLabUrl).href;
    this.returnUrl = new URL('/return', sdkLabUrl).href;
    this.returnPage = new ReturnPage(page, sdkLabUrl);
  }

  /** Loads the lab page and waits for the SDK global. Can be called again to load it afresh. */
  async open(): Promise<void> {
    if (!this.exposed) {
      await this.page.exposeFunction(SDK_LAB_BINDING, (event: LabEvent) => {
        this.events.push(event);
      });
      this.exposed = true;
    }
    await this.page.goto(this.url);
    expect(await this.page.evaluate(() => typeof (window as unknown as { AgeVerify?: unknown }).AgeVerify), 'the SDK loaded from the service').toBe('object');
  }

  /** `new AgeVerify.AgeVerify(options)` in the page; a synchronous throw comes back as `{ thrown: true, error }`. */
  construct(options: Record<string, unknown>, hooks: LabHooks = ALL_HOOKS): Promise<{ thrown: false } | { thrown: true; error: LabError }> {
    return this.page.evaluate(
      ([options, hooks]) =>
        (window as unknown as { sdkLab: { construct(o: unknown, h: unknown): { thrown: false } | { thrown: true; error: LabError } } }).sdkLab.construct(
          options,
          hooks,
        ),
      [options, hooks] as const,
    );
  }

  /** Constructs the SDK and fails the test if the constructor throws. */
  async configure(options: Record<string, unknown>, hooks: LabHooks = ALL_HOOKS): Promise<void> {
    const outcome = await this.construct(options, hooks);
    expect(outcome, 'the constructor accepts these options').toEqual({ thrown: false });
  }

  /** Clicks "Verify my age", whose handler calls `verify(options)`: a real user gesture, as popups need. */
  async verify(options?: Record<string, unknown>): Promise<void> {
    await this.page.evaluate((options) => (window as unknown as { sdkLab: { setVerifyOptions(o: unknown): void } }).sdkLab.setVerifyOptions(options), options);
    await this.page.getByTestId('lab-verify').click();
  }

  /** Waits for the next event of `type` after the `skip` first ones, and returns it. */
  async waitForEvent<T extends LabEventType>(type: T, skip = 0): Promise<Extract<LabEvent, { type: T }>> {
    await expect.poll(() => this.eventsOf(type).length, { message: `SDK lab event "${type}"` }).toBeGreaterThan(skip);
    return this.eventsOf(type)[skip]!;
  }

  /** Forgets the events so far (e.g. the results of earlier page loads). */
  clearEvents(): void {
    this.events.length = 0;
  }

  eventsOf<T extends LabEventType>(type: T): Extract<LabEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<LabEvent, { type: T }> => event.type === type);
  }

  /**
   * Records every `POST /sessions/create` the page (and its popups) make, passing each through
   * unchanged. Returns the list, filled as calls happen.
   */
  async recordSessionCreations(): Promise<SessionCreation[]> {
    const creations: SessionCreation[] = [];
    await this.page.context().route(`${this.serviceUrl}/api/v1/sessions/create`, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      const response = await route.fetch();
      creations.push({
        requestHeaders: await request.allHeaders(),
        requestBody: request.postDataJSON(),
        status: response.status(),
        body: (await response.json()) as Record<string, unknown>,
      });
      await route.fulfill({ response });
    });
    return creations;
  }
}
