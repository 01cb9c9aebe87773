/**
 * The SDK lab: a small merchant app for the SDK specs, started by global setup next to the example
 * merchant (run: PORT=… SERVICE_URL=… PUBLISHABLE_KEY=… SECRET_KEY=… bun e2e/support/sdk-lab.ts).
 *
 *   GET /sdk-lab  a bare page that loads the SDK exactly as a merchant does (a script tag pointing
 *                 at the service's `/sdk/` path, so the SDK derives the API address itself) and
 *                 lets a spec construct `AgeVerify.AgeVerify` with any options and call `verify()`
 *                 from a real click.
 *   anything else the example merchant app itself (examples/merchant/server.ts), so `/return`
 *                 validates the session with the sandbox secret key, as the merchant server does.
 *
 * Why a server of its own, on 127.0.0.1: in new-tab mode the verify UI posts its completion message
 * to the origin of `returnUrl` (sdk/README.md "Modes"), so the page calling `verify()` and
 * `returnUrl` must share an origin; and a page fulfilled by a Playwright route has no IP address
 * space, so Chromium's local network access checks refuse it the SDK script from 127.0.0.1.
 *
 * Everything the SDK hands to the page (the onComplete, onCancel and onError arguments, the result
 * of verify(), each window.open call) is reported to the test through an exposed function
 * (pages/sdk-lab-page.ts), so it survives the page navigating away (redirect mode, cancelUrl).
 */
import { createMerchant } from '../../examples/merchant/server';

export const SDK_LAB_PATH = '/sdk-lab';

/** Name of the function the lab page calls for every event; exposed by SdkLabPage. */
export const SDK_LAB_BINDING = '__sdkLabReport';

export function createSdkLab(config: { serviceUrl: string; publishableKey: string; secretKey: string }): (request: Request) => Promise<Response> {
  const merchant = createMerchant(config);
  return async (request) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === SDK_LAB_PATH) {
      return new Response(sdkLabHtml(config.serviceUrl), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
    }
    return merchant(request);
  };
}

if (import.meta.main) {
  const env = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`sdk-lab: ${name} is not set`);
    return value;
  };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: Number(env('PORT')),
    fetch: createSdkLab({ serviceUrl: env('SERVICE_URL'), publishableKey: env('PUBLISHABLE_KEY'), secretKey: env('SECRET_KEY') }),
  });
  console.log(`SDK lab listening on http://${server.hostname}:${server.port}${SDK_LAB_PATH}`);
}

function sdkLabHtml(serviceUrl: string): string {
  const sdkUrl = new URL('/sdk/ageverify.iife.min.js', serviceUrl).href;
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>SDK lab</title></head>
  <body>
    <h1>SDK lab</h1>
    <button type="button" data-testid="lab-verify">Verify my age</button>
    <script src="${sdkUrl}"></script>
    <script>
      (function () {
        var report = function (event) { window.${SDK_LAB_BINDING}(event); };
        var describeError = function (error) {
          return {
            name: error && error.name,
            code: error && error.code,
            message: error && error.message,
            retryAfterMs: error && error.retryAfterMs,
            isError: error instanceof Error,
            isAgeVerifyError: error instanceof AgeVerify.AgeVerifyError,
          };
        };
        var describeArgument = function (args) {
          var value = args[0];
          return { count: args.length, keys: value && typeof value === 'object' ? Object.keys(value) : [], value: value };
        };

        // Every window.open call, so a spec can tell the popup (size features) from the tab.
        var open = window.open;
        window.open = function (url, target, features) {
          report({ type: 'window.open', url: String(url), target: String(target), features: String(features) });
          return open.apply(window, arguments);
        };

        var instance = null;
        var verifyOptions;
        window.sdkLab = {
          /** Constructs the SDK; callbacks are added here because functions cannot cross from the test. */
          construct: function (options, hooks) {
            var full = Object.assign({}, options);
            if (hooks.onComplete) full.onComplete = function () { report({ type: 'complete', argument: describeArgument(arguments) }); };
            if (hooks.onCancel) full.onCancel = function () {
              report({ type: 'cancel', argument: describeArgument(arguments) });
              return hooks.onCancelReturns;
            };
            if (hooks.onError) full.onError = function (error) { report({ type: 'error', error: describeError(error) }); };
            try {
              instance = new AgeVerify.AgeVerify(full);
              return { thrown: false };
            } catch (error) {
              return { thrown: true, error: describeError(error) };
            }
          },
          setVerifyOptions: function (options) { verifyOptions = options; },
        };

        document.querySelector('[data-testid="lab-verify"]').addEventListener('click', function () {
          var result;
          try {
            result = instance.verify(verifyOptions);
          } catch (error) {
            report({ type: 'verify-threw', error: describeError(error) });
            return;
          }
          result.then(function (value) {
            report({
              type: 'verify-result',
              result: value.ok
                ? { ok: true, sessionId: value.sessionId, verifyUrl: value.verifyUrl, mode: value.mode }
                : { ok: false, error: describeError(value.error) },
            });
          }, function (error) { report({ type: 'verify-rejected', error: describeError(error) }); });
        });
      })();
    </script>
  </body>
</html>
`;
}
