/**
 * Entry of the lazily loaded capture chunk (rollup emits it to verify-ui/dist/chunks/): the
 * camera, the document choice, frame encoding and the submission client. The app imports it only
 * when a live check starts, so the first load of every page (sandbox, blocked, over, the phone's
 * "done") stays small.
 */
import { AgeVerifyCamera } from './age-verify-camera';
import { AgeVerifyDocumentChoice } from './age-verify-document-choice';
import { AgeVerifyLive } from './age-verify-live';
import { AgeVerifyUpload } from './age-verify-upload';
import { addLiveTranslations } from './i18n';

const ELEMENTS: ReadonlyArray<readonly [string, CustomElementConstructor]> = [
  ['age-verify-camera', AgeVerifyCamera],
  ['age-verify-document-choice', AgeVerifyDocumentChoice],
  ['age-verify-upload', AgeVerifyUpload],
  ['age-verify-live', AgeVerifyLive],
];

/** Loads the live check's strings of the page language, then defines the elements (their first render is already translated). */
export async function defineLiveElements(): Promise<void> {
  await addLiveTranslations();
  for (const [tag, element] of ELEMENTS) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
}
