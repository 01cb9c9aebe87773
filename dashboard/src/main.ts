/**
 * Entry of the tenant dashboard (dashboard/index.html loads the bundle built from here).
 * Translations are initialised, the page language's locale loaded (i18n.ts), before any element is
 * defined, so the first render is already in that language: a German browser never sees English first.
 */
import { i18n, initI18n } from './i18n';
import { DashAccount } from './dash-account';
import { DashApp } from './dash-app';
import { DashAudit } from './dash-audit';
import { DashChart } from './dash-chart';
import { DashConfirm } from './dash-confirm';
import { DashDeliveryLog } from './dash-delivery-log';
import { DashDeliveryTraffic } from './dash-delivery-traffic';
import { DashDomains } from './dash-domains';
import { DashEmails } from './dash-emails';
import { DashEndpointForm } from './dash-endpoint-form';
import { DashHeader } from './dash-header';
import { DashInvitation } from './dash-invitation';
import { DashSignupConfirm } from './dash-signup-confirm';
import { DashKeys } from './dash-keys';
import { DashOverview } from './dash-overview';
import { DashSecret } from './dash-secret';
import { DashSessionDetail } from './dash-session-detail';
import { DashSessionTraffic } from './dash-session-traffic';
import { DashSessions } from './dash-sessions';
import { DashSetup } from './dash-setup';
import { DashSignIn } from './dash-sign-in';
import { DashSignUp } from './dash-sign-up';
import { DashTeam } from './dash-team';
import { DashTwoFactor } from './dash-two-factor';
import { DashTwoFactorChallenge } from './dash-two-factor-challenge';
import { DashTwoFactorPolicy } from './dash-two-factor-policy';
import { DashWebhookDetail } from './dash-webhook-detail';
import { DashWebhooks } from './dash-webhooks';
import { requestUpdateEverywhere } from './rerender';

const ELEMENTS: ReadonlyArray<readonly [string, CustomElementConstructor]> = [
  // Children first: the app's first render then creates upgraded screens directly.
  ['dash-confirm', DashConfirm],
  ['dash-secret', DashSecret],
  ['dash-endpoint-form', DashEndpointForm],
  ['dash-delivery-log', DashDeliveryLog],
  ['dash-chart', DashChart],
  ['dash-session-traffic', DashSessionTraffic],
  ['dash-delivery-traffic', DashDeliveryTraffic],
  ['dash-header', DashHeader],
  ['dash-two-factor', DashTwoFactor],
  ['dash-two-factor-challenge', DashTwoFactorChallenge],
  ['dash-two-factor-policy', DashTwoFactorPolicy],
  ['dash-setup', DashSetup],
  ['dash-sign-in', DashSignIn],
  ['dash-sign-up', DashSignUp],
  ['dash-invitation', DashInvitation],
  ['dash-signup-confirm', DashSignupConfirm],
  ['dash-account', DashAccount],
  ['dash-overview', DashOverview],
  ['dash-keys', DashKeys],
  ['dash-domains', DashDomains],
  ['dash-webhooks', DashWebhooks],
  ['dash-webhook-detail', DashWebhookDetail],
  ['dash-sessions', DashSessions],
  ['dash-session-detail', DashSessionDetail],
  ['dash-team', DashTeam],
  ['dash-emails', DashEmails],
  ['dash-audit', DashAudit],
  ['dash-app', DashApp],
];
void initI18n().then(() => {
  // A language chosen in the account menu re-renders every element in place (issue 23).
  i18n.on('languageChanged', () => requestUpdateEverywhere(document));
  for (const [tag, element] of ELEMENTS) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
});
