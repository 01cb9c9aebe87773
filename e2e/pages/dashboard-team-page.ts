import { expect, type Locator, type Page } from '@playwright/test';

/** The Team screen (members, roles, invitations) and the Emails outbox an invitation lands in. */
export class DashboardTeamPage {
  readonly readOnlyNote: Locator;
  readonly inviteButton: Locator;

  constructor(readonly page: Page) {
    this.readOnlyNote = page.getByTestId('team-read-only');
    this.inviteButton = page.getByRole('button', { name: 'Send invitation' });
  }

  async invite(email: string, role: 'Admin' | 'Developer'): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Role', { exact: true }).selectOption({ label: role });
    await this.inviteButton.click();
    await expect(this.page.getByRole('status').filter({ hasText: `Invitation sent to ${email}.` })).toBeVisible();
  }

  /** The invitation link from the email in the outbox (Emails screen, owner/admin). */
  async invitationLinkFromOutbox(email: string): Promise<string> {
    const mail = this.page.getByTestId('emails').locator(':scope > li').filter({ hasText: email }).first();
    await mail.locator('summary').click();
    const text = (await mail.locator('pre').textContent()) ?? '';
    const link = /https?:\/\/\S+\/dashboard\/invite#secret=\S+/.exec(text)?.[0];
    if (!link) throw new Error(`no invitation link in the email to ${email}:\n${text}`);
    return link;
  }
}
