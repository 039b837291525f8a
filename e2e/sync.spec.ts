import { rmSync } from "node:fs";
import { request as playwrightRequest, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { pushRequest } from "../shared/sync/sync-requests";
import { heading, indicator, markPage, orderVehicle, rename, stillMarked } from "./sync-helpers";

/**
 * Local-first sync between two browsers signed in to the same workspace: live edits, edits made
 * offline, and a Worker restart. Each browser context has its own IndexedDB, so each is its own
 * Replicache client group, like two computers.
 */

const MAPBOX = /^https:\/\/([a-z0-9-]+\.)*mapbox\.com\//;

interface Browsing {
  context: BrowserContext;
  page: Page;
}

async function signedIn(browser: Browser, baseURL: string, token: string): Promise<Browsing> {
  const context = await browser.newContext({ baseURL });
  await context.route(MAPBOX, (route) => route.abort());
  const page = await context.newPage();
  await signInAs(page, token);
  return { context, page };
}

test.describe("sync between two browsers", () => {
  const contexts: BrowserContext[] = [];
  test.afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  test("an edit in one browser appears in the other without a reload", async ({ browser, request, baseURL }) => {
    const fleet = await newFleetAccount(request, "Live Fleet");
    const vehicle = await orderVehicle(request, fleet);
    const a = await signedIn(browser, baseURL!, fleet.token);
    const b = await signedIn(browser, baseURL!, fleet.token);
    contexts.push(a.context, b.context);
    for (const { page } of [a, b]) {
      await page.goto(`/vehicles/${vehicle.id}/settings`);
      await expect(heading(page)).toHaveText(vehicle.name);
    }
    await markPage(b.page);

    await rename(a.page, "Renamed in A");
    await expect(heading(a.page)).toHaveText("Renamed in A");
    await expect(heading(b.page)).toHaveText("Renamed in A");
    expect(await stillMarked(b.page)).toBe(true);
    await expect(indicator(a.page)).toHaveAttribute("data-state", "synced");
  });

  test("an edit made offline is kept, shown as pending, survives a reload and reaches the other browser on reconnection", async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const fleet = await newFleetAccount(request, "Offline Fleet");
    const vehicle = await orderVehicle(request, fleet);
    const a = await signedIn(browser, baseURL!, fleet.token);
    const b = await signedIn(browser, baseURL!, fleet.token);
    contexts.push(a.context, b.context);
    const url = `/vehicles/${vehicle.id}/settings`;
    for (const { page } of [a, b]) {
      await page.goto(url);
      await expect(heading(page)).toHaveText(vehicle.name);
    }
    await expect(indicator(a.page)).toHaveAttribute("data-state", "synced");

    // Offline: the edit applies locally at once and waits, shown in the top bar. Playwright's
    // offline emulation may reach the sync worker's requests later than the page's, so its sync
    // endpoints are cut off explicitly too (as they would be by a real outage).
    await a.context.route("**/api/sync/**", (route) => route.abort("internetdisconnected"));
    await a.context.setOffline(true);
    await expect(indicator(a.page)).toHaveAttribute("data-state", "offline");
    await rename(a.page, "Edited offline");
    await expect(heading(a.page)).toHaveText("Edited offline");
    await expect(indicator(a.page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");

    // A reload while the sync endpoints stay unreachable (the page itself has to load, and there
    // is no service worker): the edit comes back from IndexedDB. An edit is on disk before it is
    // shown (ADR 0074), so the first fresh tab must have it; the long timeout is for a busy machine.
    await a.context.setOffline(false);
    const pageA = await a.context.newPage();
    await pageA.goto(url);
    await expect(heading(pageA)).toHaveText("Edited offline", { timeout: 30_000 });
    await a.page.close();
    await expect(indicator(pageA)).toHaveAttribute("aria-label", /1 change/);
    // The other browser has not heard of it.
    await expect(heading(b.page)).toHaveText(vehicle.name);

    // Reconnection: the browser comes back online and sends the edit; the other browser gets it live.
    await a.context.setOffline(true);
    await a.context.unrouteAll();
    await a.context.setOffline(false);
    await expect(heading(b.page)).toHaveText("Edited offline");
    await expect(indicator(pageA)).toHaveAttribute("data-state", "synced");
    await expect(heading(pageA)).toHaveText("Edited offline");
  });

  test("a session revoked elsewhere signs this browser out: the room closes its socket at once and the sync answers 401", async ({
    browser,
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request, "Revoked Fleet");
    const vehicle = await orderVehicle(request, fleet);
    const a = await signedIn(browser, baseURL!, fleet.token);
    contexts.push(a.context);
    await a.page.goto(`/vehicles/${vehicle.id}/settings`);
    await expect(heading(a.page)).toHaveText(vehicle.name);

    // Signed out on another device with the same session: the token is revoked on the server, the
    // room closes the socket that session opened (issue 13), and the browser's session check signs
    // it out without waiting for its next edit.
    expect((await request.post("/api/signout", { headers: { Authorization: `Bearer ${fleet.token}` } })).status()).toBe(
      200,
    );
    await expect(a.page).toHaveURL(/\/login\?redirect=/);
    const push = await request.post("/api/sync/push", {
      headers: { Authorization: `Bearer ${fleet.token}` },
      data: pushRequest([]),
    });
    expect(push.status()).toBe(401);
  });
});

/**
 * A Worker of this spec's own (wrangler dev on E2E_PORT + 1 with its own local D1), so it can be
 * stopped and started again while two browsers stay open: the room's Durable Object and every
 * socket go away with it.
 */
test.describe("after the Worker restarts", () => {
  const port = Number(process.env.E2E_PORT ?? 8799) + 1;
  const baseURL = `http://127.0.0.1:${port}`;
  const persistTo = `.wrangler/e2e-sync-restart-${port}`;
  type Worker = { stop(): Promise<void> };
  type WorkerProcess = {
    migrateFreshDatabase(persistTo: string, options?: object): Promise<void>;
    wrangler(args: string[], options?: object): Promise<void>;
    startWorker(options: {
      port: number;
      persistTo: string;
      quiet?: boolean;
      vars?: Record<string, string>;
    }): Promise<Worker>;
  };
  let workerProcess: WorkerProcess;
  let worker: Worker | undefined;
  const start = async () => {
    worker = await workerProcess.startWorker({
      port,
      persistTo,
      quiet: true,
      vars: { ENVIRONMENT: "test", APP_URL: baseURL, RATE_LIMIT_SCALE: "1000" },
    });
  };
  const stop = async () => {
    const running = worker;
    worker = undefined;
    await running?.stop();
  };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // The project's own runner for wrangler dev (plain JS, shared with npm start and the benchmarks).
    const modulePath: string = "../scripts/worker-process.mjs";
    workerProcess = (await import(modulePath)) as WorkerProcess;
    rmSync(persistTo, { recursive: true, force: true });
    await workerProcess.migrateFreshDatabase(persistTo, { stdio: "ignore" });
    await start();
  });

  test.afterAll(async () => {
    await stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  test("clients reconnect by themselves and catch up on what changed", async ({ browser }) => {
    test.setTimeout(180_000);
    const api = await playwrightRequest.newContext({ baseURL });
    const contexts: BrowserContext[] = [];
    try {
      const fleet = await newFleetAccount(api, "Restart Fleet");
      const vehicle = await orderVehicle(api, fleet);
      const a = await signedIn(browser, baseURL, fleet.token);
      const b = await signedIn(browser, baseURL, fleet.token);
      contexts.push(a.context, b.context);
      await a.page.goto(`/vehicles/${vehicle.id}/settings`);
      await expect(heading(a.page)).toHaveText(vehicle.name);
      await b.page.goto("/vehicles");
      await expect(b.page.getByRole("row", { name: new RegExp(vehicle.name) })).toBeVisible();
      await markPage(a.page);
      await markPage(b.page);

      await stop();
      // While the Worker is down, A edits: kept locally and pending.
      await rename(a.page, "Renamed while down");
      await expect(heading(a.page)).toHaveText("Renamed while down");
      await expect(indicator(a.page)).toHaveAttribute("aria-label", /1 change/);

      await start();
      // A write on the restarted Worker, through the public API.
      const added = await orderVehicle(api, fleet);

      // Nobody reloads: the sockets reconnect, A sends its edit, both catch up.
      await expect(b.page.getByRole("row", { name: /Renamed while down/ })).toBeVisible({ timeout: 30_000 });
      await expect(b.page.getByRole("row", { name: new RegExp(`${added.name}\\b`) })).toBeVisible({ timeout: 30_000 });
      await expect(indicator(a.page)).toHaveAttribute("data-state", "synced", { timeout: 30_000 });
      expect(await stillMarked(a.page)).toBe(true);
      expect(await stillMarked(b.page)).toBe(true);

      // And they are live again: an edit in A reaches B through the new room.
      await rename(a.page, "Live again");
      await expect(b.page.getByRole("row", { name: /Live again/ })).toBeVisible();
    } finally {
      for (const context of contexts) await context.close();
      await api.dispose();
    }
  });

  test("a change no poke announced (made while the Worker was down) reaches clients when they reconnect", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const api = await playwrightRequest.newContext({ baseURL });
    const contexts: BrowserContext[] = [];
    try {
      const fleet = await newFleetAccount(api, "Missed Poke Fleet");
      const vehicle = await orderVehicle(api, fleet);
      const a = await signedIn(browser, baseURL, fleet.token);
      const b = await signedIn(browser, baseURL, fleet.token);
      contexts.push(a.context, b.context);
      await a.page.goto(`/vehicles/${vehicle.id}/overview`);
      await b.page.goto("/vehicles");
      await expect(heading(a.page)).toHaveText(vehicle.name);
      await expect(b.page.getByRole("row", { name: new RegExp(vehicle.name) })).toBeVisible();

      await stop();
      // Written straight into the Worker's local D1 the way every write is stamped (version bumped,
      // row stamped), but with no Worker running, so no room ever pokes about it.
      const sql =
        `UPDATE workspaces SET version = version + 1 WHERE id = '${fleet.workspaceId}'; ` +
        `UPDATE vehicles SET name = 'Renamed offstage', version = (SELECT version FROM workspaces WHERE id = '${fleet.workspaceId}') ` +
        `WHERE id = '${vehicle.id}';`;
      await workerProcess.wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--command", sql], {
        stdio: "ignore",
      });
      await start();

      // Well inside the 60 s pull interval: only pulling on reconnection explains it.
      await expect(heading(a.page)).toHaveText("Renamed offstage", { timeout: 20_000 });
      await expect(b.page.getByRole("row", { name: /Renamed offstage/ })).toBeVisible({ timeout: 20_000 });
    } finally {
      for (const context of contexts) await context.close();
      await api.dispose();
    }
  });
});
