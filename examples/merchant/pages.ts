/**
 * The two HTML pages of the example shop. Plain template strings: every value that did not come
 * from this file goes through `escapeHtml` (or `jsonForScript` inside a <script> element).
 */
import type { ValidationOutcome } from './validate';

/** What the shop page hands to the browser SDK. Never the secret key. */
export interface ShopPageOptions {
  serviceUrl: string;
  publishableKey: string;
  returnUrl: string;
  /** The shop's own user id for the signed-in customer, echoed back by validation. */
  externalUserId: string;
}

export function shopPage(options: ShopPageOptions): string {
  const sdkUrl = new URL('/sdk/ageverify.iife.min.js', options.serviceUrl).href;
  const sdkConfig = {
    apiKey: options.publishableKey,
    returnUrl: options.returnUrl,
    baseUrl: new URL('/api/v1', options.serviceUrl).href,
    externalUserId: options.externalUserId,
    sdkUrl,
  };
  return layout(
    'Demo Shop',
    `<h1>Demo Shop</h1>
    <p>Some products here are for adults only. Verify your age once to unlock them.</p>
    <button id="verify-button" data-testid="verify-button" type="button" disabled>Verify my age</button>
    <p id="verify-error" data-testid="verify-error" role="alert" hidden></p>

    <script type="application/json" id="sdk-config">${jsonForScript(sdkConfig)}</script>
    <script src="${escapeHtml(sdkUrl)}"></script>
    <script>
      const config = JSON.parse(document.getElementById('sdk-config').textContent);
      const button = document.getElementById('verify-button');
      const errorBox = document.getElementById('verify-error');
      const showError = (error) => {
        errorBox.textContent = (error && error.message) || String(error);
        errorBox.hidden = false;
      };

      try {
        if (typeof AgeVerify === 'undefined') throw new Error('The age verification SDK did not load from ' + config.sdkUrl);
        // The constructor throws at once on a bad configuration (missing key, secret key, bad returnUrl).
        const ageVerify = new AgeVerify.AgeVerify({
          apiKey: config.apiKey,
          returnUrl: config.returnUrl,
          baseUrl: config.baseUrl,
          onError: showError,
        });
        button.addEventListener('click', async () => {
          errorBox.hidden = true;
          try {
            // Creates the session with the publishable key, then sends the browser to the verify UI.
            await ageVerify.verify({ externalUserId: config.externalUserId });
          } catch (error) {
            showError(error);
          }
        });
        button.disabled = false;
      } catch (error) {
        showError(error);
      }
    </script>`,
  );
}

/**
 * The page behind `returnUrl`. Everything it says about the user comes from `outcome`, the
 * server-side validation. `callbackStatus` is the untrusted `status` query parameter, shown only
 * to make the difference visible.
 */
export function returnPage(outcome: ValidationOutcome, callbackStatus: string | null): string {
  const callbackNote = `<p class="note">The redirect claimed <code data-testid="callback-status">status=${escapeHtml(callbackStatus ?? '(none)')}</code>.
    This page shows what <code>POST /sessions/validate</code> answered instead.</p>`;

  if (!outcome.ok) {
    return layout(
      'Access denied',
      `<h1 data-testid="access-denied">Access denied</h1>
      <p>The session could not be validated${outcome.httpStatus === null ? '' : ` (HTTP ${outcome.httpStatus})`}:
        <strong data-testid="validation-error">${escapeHtml(outcome.message)}</strong></p>
      ${callbackNote}
      <p><a href="/">Back to the shop</a></p>`,
    );
  }

  const { result } = outcome;
  const heading = result.accessGranted ? `<h1 data-testid="access-granted">Access granted</h1>` : `<h1 data-testid="access-denied">Access denied</h1>`;
  return layout(
    result.accessGranted ? 'Access granted' : 'Access denied',
    `${heading}
    <dl>
      <dt>Status</dt><dd data-testid="validated-status">${escapeHtml(result.status)}</dd>
      <dt>External user ID</dt><dd data-testid="validated-external-user-id">${escapeHtml(result.externalUserId ?? '(none)')}</dd>
      <dt>Session ID</dt><dd data-testid="validated-session-id">${escapeHtml(result.sessionId)}</dd>
      <dt>Verification mode</dt><dd data-testid="validated-verification-mode">${escapeHtml(result.verificationMode)}</dd>
      <dt>Challenge age</dt><dd data-testid="validated-challenge-age">${escapeHtml(String(result.challengeAge))}</dd>
    </dl>
    ${callbackNote}
    <p><a href="/">Back to the shop</a></p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the shop</a></p>`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
      button { font-size: 1rem; padding: 0.6rem 1.2rem; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
      dt { font-weight: 600; }
      dd { margin: 0; font-family: ui-monospace, monospace; }
      .note { color: #555; font-size: 0.9rem; }
      [role="alert"] { color: #b00020; }
    </style>
  </head>
  <body>
    ${body}
  </body>
</html>
`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** JSON that is safe inside a <script> element: `<` can never start `</script>`. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
