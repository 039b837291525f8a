import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";

/**
 * A job alert names its job in the Inbox (issue 43, docs/decisions/0062): a rule on arrivals, a
 * job on the vehicle's day, the vehicle's reports reaching the stop, and the Inbox row saying
 * which job, through the real Worker, its object and sync.
 */
test("an arrival at a job arrives in the Inbox naming the job", async ({ page, request }) => {
  const fleet = await newFleetAccount(request);
  const [beacon] = await orderVehicles(request, fleet, 1);
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const rule = await request.post("/api/alert-rules", { headers: auth, data: { type: "job_arrived" } });
  expect(rule.status()).toBe(201);
  const t0 = Date.now() - 30_000;
  // the workspace's day (no time zone set: UTC)
  const date = new Date(t0).toISOString().slice(0, 10);
  const job = await request.post("/api/jobs", {
    headers: auth,
    data: {
      title: "Deliver pallets",
      date,
      vehicleId: beacon!.vehicleId,
      location: { latitude: 41.8801, longitude: -87.63 },
    },
  });
  expect(job.status()).toBe(201);
  const { number } = (await job.json()) as { number: number };

  await signInAs(page, fleet.token);
  await page.goto("/inbox");
  await report(request, beacon!.id, { lat: 41.87, lon: -87.63, timestamp: t0, ignition: true, speed: 20 });
  await report(request, beacon!.id, { lat: 41.8801, lon: -87.63, timestamp: t0 + 20_000, ignition: true, speed: 0 });

  const row = page.getByRole("button", {
    name: `Unread: ${beacon!.vehicleName}, Arrived at a job: #${number} Deliver pallets`,
  });
  await expect(row).toBeVisible();
});
