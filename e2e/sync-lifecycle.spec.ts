import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { heading, indicator, markPage, orderVehicle, rename, stillMarked } from "./sync-helpers";

/**
 * The local store's lifecycle (issue 14, "Missing head main"): opening signed-in pages by a full
 * page load, in a second tab of the same browser, or in a fresh profile that has only the stored
 * token, must not throw. The fixtures fail any test on an uncaught page error.
 */
test.describe("the local store's lifecycle", () => {
  test("a full page load, a second tab and a fresh profile with only the token open the store without errors", async ({
    browser,
    request,
    baseURL,
    page,
  }) => {
    const fleet = await newFleetAccount(request, "Lifecycle Fleet");
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    await expect(page.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    // A full page load of another signed-in page.
    await page.goto("/map");
    await page.reload();
    await expect(page.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    // A second tab of the same browser.
    const second = await page.context().newPage();
    await second.goto("/vehicles");
    await expect(second.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    await second.reload();
    await expect(second.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    // A fresh profile that has only the stored token.
    const fresh = await browser.newContext({ baseURL });
    const other = await fresh.newPage();
    await other.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, (route) => route.abort());
    await signInAs(other, fleet.token);
    await other.goto("/vehicles");
    await expect(other.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    await other.goto("/map");
    await expect(other.locator(".sync-indicator")).toHaveAttribute("data-state", "synced");
    await fresh.close();
  });
});

/**
 * The pulls a page sends, over HTTP or over the room's socket, and what came back (a socket pull
 * the room sends back to HTTP answers `{ viaHttp: true }`; its HTTP pull is recorded too).
 */
function recordPulls(page: Page) {
  const pulls: { clientGroupID: string; cookie: unknown; answer: Promise<unknown> }[] = [];
  page.on("request", (req) => {
    if (!req.url().endsWith("/api/sync/pull")) return;
    const body = req.postDataJSON() as { clientGroupID: string; cookie: unknown };
    pulls.push({ ...body, answer: req.response().then((res) => res?.json()) });
  });
  page.on("websocket", (ws) => {
    const answers = new Map<number, (answer: unknown) => void>();
    const json = (payload: string | Buffer) => {
      try {
        return JSON.parse(String(payload)) as { type?: string; id?: number; body?: unknown; viaHttp?: boolean };
      } catch {
        return null;
      }
    };
    ws.on("framesent", ({ payload }) => {
      const message = json(payload);
      if (message?.type !== "pull" || message.id === undefined) return;
      const body = message.body as { clientGroupID: string; cookie: unknown };
      pulls.push({ ...body, answer: new Promise((resolve) => answers.set(message.id!, resolve)) });
    });
    ws.on("framereceived", ({ payload }) => {
      const message = json(payload);
      if (message?.type === "pull" && message.id !== undefined)
        answers.get(message.id)?.(message.viaHttp ? { viaHttp: true } : message.body);
    });
  });
  return pulls;
}

test.describe("a deploy that adds a mutator", () => {
  test("both builds' tabs keep syncing without reloads, and an edit made offline in the old build arrives", async ({
    browser,
    baseURL,
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const fleet = await newFleetAccount(request, "Deploy Fleet");
    const vehicle = await orderVehicle(request, fleet);
    const url = `/vehicles/${vehicle.id}/settings`;
    await signInAs(page, fleet.token);

    // Yesterday's build, open and synced.
    const oldPulls = recordPulls(page);
    await page.goto(url);
    await expect(heading(page)).toHaveText(vehicle.name);
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    await markPage(page);

    // Its sync requests fail from now on (a train tunnel): an edit waits in the local store.
    await page.route("**/api/sync/**", (route) => route.abort("internetdisconnected"));
    await rename(page, "Edited offline in the old build");
    await expect(heading(page)).toHaveText("Edited offline in the old build");
    await expect(indicator(page)).toHaveAttribute("aria-label", /1 change/);

    // Today's build, with one mutator more, in another tab of the same browser: Replicache forks
    // a new client group from the stored one, carrying its cookie. It is served incrementally (no
    // ClientStateNotFound, no reload), and it recovers the old group's unsent edit.
    const next = await page.context().newPage();
    const nextPulls = recordPulls(next);
    await expect(async () => {
      await next.goto(`${url}?sync-next-build`);
      await expect(heading(next)).toHaveText("Edited offline in the old build", { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await markPage(next);
    const oldGroup = oldPulls[0]!.clientGroupID;
    const forked = nextPulls.filter((p) => p.clientGroupID !== oldGroup && p.cookie !== null);
    expect(forked.length, "the new build pulls as a fork of the stored client group").toBeGreaterThan(0);
    expect(await forked[0]!.answer).toHaveProperty("patch");
    for (const p of nextPulls) expect(await p.answer).not.toHaveProperty("error");
    // It reached the server: another computer sees it.
    const elsewhere = await browser.newContext({ baseURL });
    const other = await elsewhere.newPage();
    await other.route(/^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//, (route) => route.abort());
    await signInAs(other, fleet.token);
    await other.goto(url);
    await expect(heading(other)).toHaveText("Edited offline in the old build");
    await elsewhere.close();

    // The old build reconnects: its edit is confirmed, and both builds keep syncing live.
    await page.unrouteAll();
    await page.evaluate(() => window.dispatchEvent(new Event("online")));
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    await rename(next, "Renamed in the new build");
    await expect(heading(page)).toHaveText("Renamed in the new build");
    await rename(page, "Renamed in the old build");
    await expect(heading(next)).toHaveText("Renamed in the old build");
    expect(await stillMarked(page)).toBe(true);
    expect(await stillMarked(next)).toBe(true);
    await expect(indicator(next)).toHaveAttribute("data-state", "synced");
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  });
});

/** Names of this page's IndexedDB databases that belong to the workspace's local store. */
const storesOf = (page: Page, workspaceId: string) =>
  page.evaluate(
    async (id) => (await indexedDB.databases()).map((d) => d.name ?? "").filter((n) => n.includes(id)),
    workspaceId,
  );

test.describe("sync and session trouble, as the user sees it", () => {
  test("the top bar tells a server that refuses from being offline, with the count of edits waiting", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request, "Refused Fleet");
    const vehicle = await orderVehicle(request, fleet);
    await signInAs(page, fleet.token);
    await page.goto(`/vehicles/${vehicle.id}/settings`);
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");

    await page.route("**/api/sync/push", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "boom" } }),
      }),
    );
    await rename(page, "Kept while refused");
    await expect(indicator(page)).toHaveAttribute("data-state", "refused");
    await expect(indicator(page)).toHaveAttribute(
      "aria-label",
      "Not syncing: the server refused; 1 change kept on this device",
    );
    await expect(indicator(page)).toContainText("Not syncing");

    await page.context().setOffline(true);
    await expect(indicator(page)).toHaveAttribute("data-state", "offline");
    await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

    await page.unrouteAll();
    await page.context().setOffline(false);
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  });

  test("a failing session check (5xx, network) keeps the session; a 401 signs out and deletes the local store", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request, "Session Fleet");
    const vehicle = await orderVehicle(request, fleet);
    await signInAs(page, fleet.token);
    await page.goto(`/vehicles/${vehicle.id}/settings`);
    await expect(heading(page)).toHaveText(vehicle.name);
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    await expect.poll(() => storesOf(page, fleet.workspaceId)).not.toEqual([]);

    // The Worker answers 503, then not at all: the page still opens on the last known identity.
    let meCalls = 0;
    await page.route("**/api/me", (route) => {
      meCalls++;
      return meCalls === 1 ? route.fulfill({ status: 503, body: "unavailable" }) : route.abort("connectionrefused");
    });
    for (let i = 0; i < 2; i++) {
      await page.reload();
      await expect(heading(page)).toHaveText(vehicle.name);
    }
    expect(await page.evaluate(() => localStorage.getItem("las"))).toContain(fleet.token);
    await page.unrouteAll();

    // The session is revoked elsewhere: the next check is a 401.
    const revoked = await request.post("/api/signout", { headers: { Authorization: `Bearer ${fleet.token}` } });
    expect(revoked.ok()).toBe(true);
    await page.reload();
    await expect(page).toHaveURL(/\/login\?redirect=/);
    expect(await page.evaluate(() => localStorage.getItem("las"))).toBeNull();
    await expect.poll(() => storesOf(page, fleet.workspaceId)).toEqual([]);
  });
});

test.describe("signing out", () => {
  test("a deletion of the local store cut short by a reload is finished by the next page", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request, "Cut Short Fleet");
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    await expect.poll(() => storesOf(page, fleet.workspaceId)).toHaveLength(1);
    const [database] = await storesOf(page, fleet.workspaceId);
    // What a sign-out leaves behind when the page goes away between writing down the stores to
    // delete and deleting them: the token gone, the store's name written down, its data still there.
    const name = database!.replace(/^rep:/, "").replace(/:\d+:[^:]+$/, "");
    await page.goto("/login");
    await page.evaluate((store) => {
      localStorage.removeItem("las");
      localStorage.setItem("las-stores-to-delete", JSON.stringify([store]));
    }, name);
    expect(await storesOf(page, fleet.workspaceId)).toEqual([database]);
    await page.reload();
    await expect.poll(() => storesOf(page, fleet.workspaceId)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("las-stores-to-delete"))).toBeNull();
  });
});

test.describe("a tab older than the deploy", () => {
  test("whose sync worker script is gone (the deploy replaced its build's assets) loads the page again, once", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request, "Stale Build Fleet");
    await signInAs(page, fleet.token);
    await page.route(/\/assets\/sync-worker-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: "Not found" }));
    let loads = 0;
    page.on("load", () => loads++);
    await page.goto("/vehicles");
    await expect.poll(() => loads, { timeout: 15_000 }).toBe(2);
    // The reloaded page still has no worker; the next reload waits out the minute (no reload loop):
    // once the page has scheduled it, it is due a minute after the last one, and has not happened.
    const scheduled = () =>
      page.evaluate(
        () => Number(sessionStorage.getItem("las-sync-reload-due")) - Number(sessionStorage.getItem("las-sync-reload")),
      );
    await expect.poll(scheduled).toBeGreaterThanOrEqual(59_000);
    expect(loads).toBe(2);
    // Once the assets are there again (the new build), the reloaded page syncs.
    await page.unroute(/\/assets\/sync-worker-[\w-]+\.js$/);
    await page.reload();
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  });
});
