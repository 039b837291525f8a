// The throttled phone going off and on the network, for the benches that time what a page opened
// offline does when the signal returns (bench/phone-reconnect.bench.ts, bench/phone-work-order.bench.ts).
// The phone's own DevTools session throttles it and cuts it off (navigator.onLine and the `online`
// event follow), and the app's API is refused for the whole context meanwhile, its workers included,
// as the browser tests' goOffline does (e2e/sync-helpers.ts).
import type { Browser, BrowserContext, CDPSession, Page, Route } from "@playwright/test";
import { openPage } from "./browser";
import { PHONE, throttleLikeAPhone } from "./phone-throttle";

const networkConditions = (offline: boolean) => ({
  offline,
  latency: PHONE.latencyMs,
  downloadThroughput: (PHONE.downKbps * 1000) / 8,
  uploadThroughput: (PHONE.upKbps * 1000) / 8,
});

/** A first visit online: answers once the service worker controls the page and the store has synced. */
export async function installApp(browser: Browser, token: string): Promise<Page> {
  const page = await openPage(browser, token);
  await page.goto("/actions");
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: 120_000 });
  await page.locator(".sync-indicator[data-state='synced']").waitFor({ timeout: 120_000 });
  return page;
}

/** A new throttled tab of `context` that can be taken off the network and back. */
export async function phoneTab(context: BrowserContext) {
  const page = await context.newPage();
  const cdp: CDPSession = await throttleLikeAPhone(page);
  const refuse = (route: Route) => route.abort("internetdisconnected");
  return {
    page,
    async offline() {
      await context.route("**/api/**", refuse);
      await cdp.send("Network.emulateNetworkConditions", networkConditions(true));
    },
    /** Back on the (throttled) network; answers the moment it was, in ms since the epoch. */
    async online() {
      await context.unroute("**/api/**", refuse);
      const at = Date.now();
      await cdp.send("Network.emulateNetworkConditions", networkConditions(false));
      return at;
    },
  };
}

/** What a page shows once an effect has reached it: at least `count` elements (1) matching `selector`, the first with `text` in its text or value. */
export interface Shown {
  selector: string;
  count?: number;
  text?: string;
}

/**
 * Starts watching `page` for `shown`, under `key`; the answer waits until it shows and resolves
 * with when it did, in ms since the epoch (the page's clock is this machine's). Checked on every
 * change to the document and every 50 ms (an input's value changes no node).
 */
export async function watchFor(page: Page, key: string, shown: Shown) {
  await page.evaluate(
    ([k, { selector, count = 1, text }]) => {
      const w = window as unknown as { __seen?: Record<string, number> };
      const seen = (w.__seen ??= {});
      const check = () => {
        if (seen[k] !== undefined) return;
        const found = document.querySelectorAll(selector);
        if (found.length < count) return;
        const first = found[0]!;
        const shownText = first instanceof HTMLInputElement ? first.value : (first.textContent ?? "");
        if (text !== undefined && !shownText.includes(text)) return;
        seen[k] = Date.now();
      };
      check();
      new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
      setInterval(check, 50);
    },
    [key, shown] as const,
  );
  return async (timeout = 60_000): Promise<number> => {
    const handle = await page.waitForFunction(
      (k) => (window as unknown as { __seen?: Record<string, number> }).__seen?.[k],
      key,
      { timeout, polling: 100 },
    );
    return (await handle.jsonValue()) as number;
  };
}

/** Watches `page` for `text` inside `selector` (watchFor). */
export const watchText = (page: Page, text: string, selector = "body") => watchFor(page, text, { selector, text });
