import { expect, type Locator, type Page } from '@playwright/test';
import { totpCode } from '../../backend/src/modules/dashboard/testing/totp';

/** What the enrolment showed: the setup key as an app would store it, and the recovery codes. */
export interface Enrolment {
  /** Base32, without the spaces the screen groups it with. */
  secret: string;
  recoveryCodes: string[];
  /** App codes the service accepted already (each is accepted once). */
  used: Set<string>;
}

/**
 * Two-factor sign-in in the dashboard (issue 23): the card on the account screen (turn on with the
 * QR code and setup key, confirm with a first code, the recovery codes once, turn off) and the code
 * step of the sign-in. Codes are computed from the shown setup key, as an authenticator app would.
 */
export class DashboardTwoFactorPage {
  readonly state: Locator;
  readonly qr: Locator;
  readonly setupKey: Locator;
  readonly recoveryCodes: Locator;

  constructor(readonly page: Page) {
    this.state = page.getByTestId('two-factor-state');
    this.qr = page.getByTestId('two-factor-qr');
    this.setupKey = page.getByTestId('two-factor-secret');
    this.recoveryCodes = page.getByTestId('recovery-codes').getByRole('listitem');
  }

  /** The account screen, from the account menu. */
  async openAccount(): Promise<void> {
    await this.page.getByRole('button', { name: /^Account: / }).click();
    await this.page.getByRole('link', { name: 'Password and two-factor sign-in' }).click();
    await expect(this.page.getByRole('heading', { level: 1 })).toHaveText('Your account');
  }

  /** Types the password and starts the enrolment; answers the setup key shown beside the QR code. */
  async start(password: string): Promise<string> {
    await this.page.getByLabel('Your password').fill(password);
    await this.page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await expect(this.page.getByRole('heading', { name: 'Add AgeVerify to your authenticator app' })).toBeVisible();
    await expect(this.qr).toBeVisible();
    return ((await this.setupKey.textContent()) ?? '').replace(/\s+/g, '');
  }

  async confirm(code: string): Promise<void> {
    await this.page.getByLabel('Code from the app').fill(code);
    await this.page.getByRole('button', { name: 'Verify and turn on' }).click();
  }

  /** The recovery codes as shown once after the first code was right. */
  async shownRecoveryCodes(): Promise<string[]> {
    await expect(this.page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    return (await this.recoveryCodes.allTextContents()).map((text) => text.trim());
  }

  async dismissRecoveryCodes(): Promise<void> {
    await this.page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await expect(this.state).toContainText('On: signing in asks for a code');
  }

  /** The whole enrolment with the right code; answers what the user would keep. */
  async enrol(password: string): Promise<Enrolment> {
    const secret = await this.start(password);
    const enrolment: Enrolment = { secret, recoveryCodes: [], used: new Set() };
    await this.confirm(await freshCode(enrolment));
    enrolment.recoveryCodes = await this.shownRecoveryCodes();
    await this.dismissRecoveryCodes();
    return enrolment;
  }

  async turnOff(password: string): Promise<void> {
    await this.page.getByLabel('Your password').fill(password);
    await this.page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await expect(this.state).toContainText('Off: your password alone signs you in.');
  }

  /** The sign-in's code step: types a code (the app's or a recovery code). */
  async enterSignInCode(code: string): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1 })).toHaveText('Two-factor sign-in');
    await this.page.getByLabel('Code', { exact: true }).fill(code);
    await this.page.getByRole('button', { name: 'Verify' }).click();
  }
}

/**
 * A code of the app that the service has not accepted yet: this 30-second step's, else the next
 * step's (both are accepted); when both were used, it waits for the next step, as a user would.
 */
export async function freshCode(enrolment: Enrolment): Promise<string> {
  for (;;) {
    for (const step of [0, 1]) {
      const code = totpCode(enrolment.secret, Date.now(), step);
      if (!enrolment.used.has(code)) {
        enrolment.used.add(code);
        return code;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 100));
  }
}
