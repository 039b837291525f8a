// Reconnect (issue 56: "a page opened offline resyncs within 2 s of the network returning"): on the
// throttled phone, a tab opened with no network from the service worker, then the network back.
// Timed from the moment the network returns to the server's change on that page: a vehicle renamed
// by another client while the phone was offline, and one renamed just after it came back.
import { loadavg } from "node:os";
import type { Browser } from "@playwright/test";
import { withBrowser } from "./browser";
import { api, newWorkspace, orderBeacons } from "./fleet";
import { report } from "./lib";
import { installApp, phoneTab, watchText } from "./phone-offline";

const RUNS = Number(process.env.PHONE_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load1 = () => loadavg()[0]!.toFixed(2);

const { token, workspaceId } = await newWorkspace("Bench Reconnect");
const [vehicle] = await orderBeacons(token, workspaceId, 3);
const rename = (name: string) => api(`/vehicles/${vehicle!.vehicleId}`, { token, method: "PATCH", body: { name } });

/**
 * One run: the app installed, then a throttled tab opens /vehicles offline from the service worker
 * (the installing tab closed). `whileOffline`: the rename is made before the network returns,
 * otherwise just after. Answers ms from the network's return to the new name on the page.
 */
async function reconnect(browser: Browser, whileOffline: boolean): Promise<number> {
  const before = `Van ${crypto.randomUUID().slice(0, 8)}`;
  await rename(before);
  const installing = await installApp(browser, token);
  const phone = await phoneTab(installing.context());
  await installing.close();
  await phone.offline();
  await phone.page.goto("/vehicles", { timeout: 120_000 });
  await phone.page.locator(".sync-indicator[data-state='offline']").waitFor({ timeout: 120_000 });
  await (
    await watchText(phone.page, before, "main")
  )(120_000);
  const name = `Renamed ${crypto.randomUUID().slice(0, 8)}`;
  if (whileOffline) await rename(name);
  const seen = await watchText(phone.page, name, "main");
  await phone.page.evaluate(() =>
    addEventListener("online", () => ((window as { onlineAt?: number }).onlineAt = Date.now())),
  );
  const online = await phone.online();
  if (!whileOffline) await rename(name);
  const ms = (await seen()) - online;
  const event = await phone.page.evaluate(() => (window as { onlineAt?: number }).onlineAt);
  console.log(
    event ? `  the page's online event ${event - online} ms after the network returned` : "  no online event",
  );
  await phone.page.context().close();
  return ms;
}

const results = await withBrowser(async (browser) => {
  const measure = async (name: string, whileOffline: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      times.push(await reconnect(browser, whileOffline));
      console.log(`${name} run ${i + 1}: ${(times.at(-1)! / 1000).toFixed(2)} s; load average ${load1()}`);
    }
    return median(times);
  };
  return { before: await measure("changed while offline", true), after: await measure("changed after", false) };
});

report(
  "A phone: a page opened offline catches up when the network returns",
  [
    {
      metric: "reconnect → a change made while offline shown on a page opened offline",
      value: results.before / 1000,
      unit: "s",
      target: "< 2 s",
    },
    {
      metric: "reconnect → a change made just after reconnecting shown on that page",
      value: results.after / 1000,
      unit: "s",
      target: "< 2 s",
    },
  ],
  [
    "The throttled phone of bench/phone.bench.ts: a first visit installs the service worker, then a new tab",
    "opens /vehicles with no network (its DevTools session offline, the API refused to the whole context, its",
    "workers included) and that first tab closes. Another client renames a vehicle through the API, while the",
    "phone is offline or right after the network returns; timed from the network's return (the moment before the DevTools command that fires the page's `online`",
    `event) to the new name in the page's DOM. Median of ${RUNS}; load average (1 min) ${load1()} at the end.`,
  ].join(" "),
);
