import type { Page } from "@playwright/test";

const MARK = "[csp-violation]";

/**
 * Collects every Content-Security-Policy violation the page reports (the browser's
 * `securitypolicyviolation` event), so a test fails when the app does anything its CSP forbids
 * (issue 13). Returns the live list; the fixture asserts it is empty after the test.
 */
export async function failOnCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (text.startsWith(MARK)) violations.push(text.slice(MARK.length).trim());
  });
  await page.addInitScript((mark) => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.warn(
        `${mark} ${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  }, MARK);
  return violations;
}
