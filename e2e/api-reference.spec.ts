/**
 * /api/v1/reference renders the OpenAPI document with Swagger UI served by the service itself,
 * under a CSP of 'self' only (backend/src/http/openapi.ts): no CSP violation, no request leaves the
 * service's origin, and the per-status error examples and rate-limit headers are on the page.
 */
import { expect, test } from './support/fixtures';

test('the API reference renders from this server under its CSP', async ({ page, environment }) => {
  const { serviceUrl } = environment;
  const violations: string[] = [];
  const foreign: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(serviceUrl) && !url.startsWith('data:')) foreign.push(url);
  });

  // Every operation of the document this server serves has its block (backend/src/http/openapi.test.ts
  // pins the list of paths; counting from the document keeps this test about the rendering).
  const openApi = (await (await page.request.get(`${serviceUrl}/api/v1/openapi.json`)).json()) as { paths: Record<string, object> };
  const operations = Object.values(openApi.paths).reduce((count, methods) => count + Object.keys(methods).length, 0);
  expect(operations).toBeGreaterThanOrEqual(10);
  await page.goto(`${serviceUrl}/api/v1/reference`);
  await expect(page.locator('.opblock')).toHaveCount(operations);
  await page.locator('.opblock-summary', { hasText: '/api/v1/sessions/validate' }).click();
  await expect(page.getByText('X-RateLimit-Remaining').first()).toBeVisible();
  await expect(page.locator('.response[data-code="409"]')).toContainText('Session has already been used');
  expect(violations).toEqual([]);
  expect(foreign).toEqual([]);
});
