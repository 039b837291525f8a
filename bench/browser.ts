// Headless Chromium for the browser benchmarks: Debian's /usr/bin/chromium with the browser
// tests' launch options (playwright.config.ts), Mapbox's hosts blocked as in e2e/fixtures.ts.
import { chromium, type Browser, type Page } from "@playwright/test";
import config from "../playwright.config";
import { baseUrl } from "./lib";

export async function launch(): Promise<Browser> {
  return chromium.launch({ ...config.use?.launchOptions, headless: true });
}

/** A fresh context and page on the bench's Worker, offline from Mapbox, signed in with `token`. */
export async function openPage(browser: Browser, token?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  // tsx compiles the functions we pass to page.evaluate with esbuild's keepNames, which calls a
  // `__name` helper that only exists in Node: give the page a no-op one.
  await context.addInitScript("globalThis.__name = (f) => f;");
  await context.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, (route) => route.abort());
  await context.route(/^https:\/\/tiles\.openfreemap\.org\//, (route) => route.abort());
  if (token) {
    await context.addInitScript((t) => {
      if (!sessionStorage.getItem("bench-signed-in")) {
        localStorage.setItem("las", JSON.stringify({ token: t }));
        sessionStorage.setItem("bench-signed-in", "1");
      }
    }, token);
  }
  return context.newPage();
}

/** Runs `body` with a browser that is closed afterwards whatever happens. */
export async function withBrowser<T>(body: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await launch();
  try {
    return await body(browser);
  } finally {
    await browser.close();
  }
}
