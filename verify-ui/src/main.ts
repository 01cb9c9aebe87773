/**
 * Entry of the hosted verification page (verify-ui/index.html loads the bundle built from here).
 * Translations are initialised before any element is defined, so the first render is already in
 * the chosen language and <html lang> is right for assistive technology from the start.
 */
import { initI18n } from './i18n';
import { pickLanguage } from './language';
import { parseLaunchParams } from './launch-params';
import { AgeVerifyApp } from './age-verify-app';
import { AgeVerifyHandoff } from './age-verify-handoff';
import { AgeVerifyIntro } from './age-verify-intro';
import { AgeVerifyLanguage } from './age-verify-language';
import { AgeVerifyMessage } from './age-verify-message';
import { AgeVerifyResult } from './age-verify-result';
import { AgeVerifySandboxPanel } from './age-verify-sandbox-panel';

const { lang } = parseLaunchParams(window.location.search);
const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language];
initI18n(pickLanguage(lang, browserLanguages));

const ELEMENTS: ReadonlyArray<readonly [string, CustomElementConstructor]> = [
  // Children first: the app's first render then creates upgraded screens directly.
  ['age-verify-message', AgeVerifyMessage],
  ['age-verify-language', AgeVerifyLanguage],
  ['age-verify-intro', AgeVerifyIntro],
  ['age-verify-sandbox-panel', AgeVerifySandboxPanel],
  ['age-verify-result', AgeVerifyResult],
  ['age-verify-handoff', AgeVerifyHandoff],
  ['age-verify-app', AgeVerifyApp],
];
for (const [tag, element] of ELEMENTS) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
