import type { WebSocket } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/**
 * The browser's realtime socket (issue 13): opened with a single-use ticket, never with the
 * session token in its URL, and closed by the room when its session is revoked elsewhere.
 */
test("the page's socket URL carries a ticket, not the session token, and the page signs out without reconnecting when the session is revoked", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Ticket Fleet");
  await signInAs(page, fleet.token);
  // Every room socket this page opens (the sync worker's), including any of the page it came from.
  const sockets: WebSocket[] = [];
  page.on("websocket", (ws) => {
    if (ws.url().includes("/parties/")) sockets.push(ws);
  });
  await page.goto("/vehicles");
  await expect(page.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
  await expect.poll(() => sockets.filter((ws) => !ws.isClosed()).length).toBe(1);
  for (const ws of sockets) {
    const url = new URL(ws.url());
    expect(url.searchParams.get("ticket")).toBeTruthy();
    expect(url.searchParams.has("token")).toBe(false);
    expect(ws.url()).not.toContain(fleet.token);
  }

  // Signing out everywhere from another device: the room closes this page's socket (asserted where
  // it can be seen reliably, worker/room-entry.worker.test.ts: Playwright may miss the close of a
  // socket whose worker ends right after), the page signs out at once, and it does not come back
  // with a new socket (it would need a ticket, which the API now refuses).
  const before = sockets.length;
  const syncWorkers = () => page.workers().filter((w) => w.url().includes("sync-worker")).length;
  expect(syncWorkers()).toBe(1);
  const res = await request.post("/api/signout/everywhere", { headers: { Authorization: `Bearer ${fleet.token}` } });
  expect(res.status()).toBe(200);
  await expect(page).toHaveURL(/\/login/);
  // The sync worker, the only opener of room sockets, has ended with the sign-out: nothing is left
  // to reconnect, and no new socket came meanwhile.
  await expect.poll(syncWorkers).toBe(0);
  expect(sockets.length).toBe(before);
});
