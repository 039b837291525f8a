import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/**
 * The browser's realtime socket (issue 13): opened with a single-use ticket, never with the
 * session token in its URL, and closed by the room when its session is revoked elsewhere.
 */
test("the page's socket URL carries a ticket, not the session token, and closes when the session is revoked", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Ticket Fleet");
  await signInAs(page, fleet.token);
  const opened = page.waitForEvent("websocket", (ws) => ws.url().includes("/parties/"));
  await page.goto("/vehicles");
  const socket = await opened;
  const url = new URL(socket.url());
  expect(url.searchParams.get("ticket")).toBeTruthy();
  expect(url.searchParams.has("token")).toBe(false);
  expect(socket.url()).not.toContain(fleet.token);

  // Signing out everywhere from another device: the room closes this page's socket, and the page
  // does not come back with a new one (it would need a ticket, which the API now refuses).
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const res = await request.post("/api/signout/everywhere", { headers: { Authorization: `Bearer ${fleet.token}` } });
  expect(res.status()).toBe(200);
  await closed;
  expect(socket.isClosed()).toBe(true);
});
