// The phone the browser benchmarks emulate (issue 41): Chromium throttled through the DevTools
// protocol as a mid-range phone on a poor mobile network. One home for the figures, so every
// phone measure (bench/phone.bench.ts, bench/track-phone.bench.ts) is taken on the same phone.
import type { CDPSession, Page } from "@playwright/test";

export const PHONE = { cpu: 4, latencyMs: 150, downKbps: 1600, upKbps: 750 };

/** Throttles the page's CPU and network to PHONE; answers its DevTools session. */
export async function throttleLikeAPhone(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpu });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: (PHONE.downKbps * 1000) / 8,
    uploadThroughput: (PHONE.upKbps * 1000) / 8,
  });
  return cdp;
}
