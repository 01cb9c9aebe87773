/**
 * "Your account is ready": the sandbox key pair a new account starts with, its secret key shown
 * this once (decision 0052). Shown by first-run setup and by sign-up's confirmation alike; the
 * caller opens the dashboard when the owner continues.
 */
import { html } from 'lit';
import type { CreateKeyPairResponse } from '@ageverify/protocol';
import type { SecretItem } from './dash-secret';
import { i18n } from './i18n';

export function renderSandboxPairReady(pair: CreateKeyPairResponse, onContinue: () => void) {
  const items: SecretItem[] = [
    { label: i18n.t('keys.publishable'), value: pair.publishableKey, once: false, testId: 'setup-publishable-key' },
    { label: i18n.t('keys.secret'), value: pair.secretKey, once: true, testId: 'setup-secret-key' },
  ];
  return html`<h1 tabindex="-1">${i18n.t('setup.readyTitle')}</h1>
    <p>${i18n.t('setup.readyIntro')}</p>
    <dash-secret .heading=${i18n.t('setup.sandboxPair')} .doneLabel=${i18n.t('setup.continue')} .items=${items} @dash-dismiss=${onContinue}></dash-secret>`;
}
