import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { serviceWorkerReady } from "./field-app-helpers";

/**
 * Push on this device (issue 41, docs/decisions/0047). The browser's own push service (Google's,
 * for Chromium) is out of reach here, so the page's PushManager is faked at that boundary: it
 * hands out a subscription with real-looking keys, as Chromium would after asking its service.
 */
const ENDPOINT = "https://push.example.net/e2e/device-1";

test.beforeEach(async ({ page, context }) => {
  await context.grantPermissions(["notifications"]);
  await page.addInitScript((endpoint) => {
    const bytes = (n: number, first = 4) =>
      btoa(String.fromCharCode(first, ...Array.from({ length: n - 1 }, (_, i) => (i * 7) % 256)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    let current: unknown = null;
    const subscription = {
      endpoint,
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: bytes(65), auth: bytes(16, 9) } }),
      unsubscribe: async () => ((current = null), true),
    };
    PushManager.prototype.subscribe = async function () {
      return (current = subscription) as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      return current as PushSubscription | null;
    };
  }, ENDPOINT);
});

test("Settings turns notifications on and off for this device, and the server keeps and forgets it", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Push Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Notifications on this device" });
  const toggle = section.getByRole("switch");
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  const stored = page.waitForResponse(
    (r) => r.url().endsWith("/api/push-subscriptions") && r.request().method() === "POST",
  );
  await toggle.click();
  expect((await stored).status()).toBe(201);
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(section).toContainText("On: this device is notified");

  const forgotten = page.waitForResponse(
    (r) => r.url().endsWith("/api/push-subscriptions") && r.request().method() === "DELETE",
  );
  await toggle.click();
  expect((await forgotten).status()).toBe(204);
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  // Gone on the server: there is nothing left to remove.
  const again = await request.delete("/api/push-subscriptions", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { endpoint: ENDPOINT },
  });
  expect(again.status()).toBe(404);
});

test("a push the service worker receives is shown as a notification carrying the page a tap opens", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Notified Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/actions");
  await serviceWorkerReady(page);

  // Chromium's DevTools deliver a push message to the worker as its push service would, decrypted.
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  const notice = { title: "Issue #3 assigned to you: Wiper torn", body: "Van 7", url: "/issues/abc", tag: "issue-abc" };
  const deliver = async () =>
    cdp.send("ServiceWorker.deliverPushMessage", {
      origin: new URL(page.url()).origin,
      registrationId: await registrationId,
      data: JSON.stringify(notice),
    });
  // Delivered again until it shows, as a push service retries: a message that reaches the worker
  // while DevTools is still attaching to it can be lost (the full run saw this once). The tag
  // makes a repeat replace the notification, so exactly one is expected.
  await expect
    .poll(async () => {
      await deliver();
      return page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data }));
      });
    })
    .toEqual([{ title: notice.title, body: "Van 7", data: { url: "/issues/abc" } }]);
});

// Issue 56: the browser's refusal (Chromium's words for it, where push is not allowed) read "Check your connection".
test("when the browser refuses to subscribe, Settings says permission was refused and how to allow it", async ({
  page,
  request,
}) => {
  await page.addInitScript(() => {
    PushManager.prototype.subscribe = async function () {
      throw new DOMException("Registration failed - permission denied", "AbortError");
    };
  });
  const fleet = await newFleetAccount(request);
  await signInAs(page, fleet.token);
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Notifications on this device" });
  const toggle = section.getByRole("switch");
  await toggle.click();
  const alert = section.getByRole("alert");
  await expect(alert).toContainText("This browser refused notifications for this site");
  await expect(alert).toContainText("site settings");
  await expect(alert).not.toContainText("connection");
  await expect(toggle).toHaveAttribute("aria-checked", "false");
});
