import type { Page } from 'playwright-core';

/**
 * Waits until a browser-side expression (text: the tests compile without the DOM library) is truthy.
 * Polls with page.evaluate because waitForFunction's string form needs eval, which the viewer's CSP refuses.
 */
export async function pollPage(page: Page, expression: string, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(expression)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${expression.slice(0, 120)})`);
    await page.waitForTimeout(100);
  }
}

/** Waits until a host-side check holds (the bridge's engine, a counter), polling every 50 ms. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
