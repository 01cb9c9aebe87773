/**
 * axe-core in the page under test (the verify UI's strict CSP forbids injected <script> tags, so
 * the source runs through Playwright's evaluate, which the page's CSP does not govern). Open
 * shadow roots, where every verify UI screen lives, are included by axe.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** Fails the test on any serious or critical violation on the page as it is now; `screen` names it in the message. */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  // A string is evaluated as a script by the DevTools protocol itself: no eval(), which the CSP forbids.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const scope = window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } };
    const result = await scope.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target),
    }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `axe on ${screen}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
