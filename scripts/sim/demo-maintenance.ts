import type { Vehicle } from "../../shared/fleet/vehicle";
import type { Api } from "./api";

const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo's service and inspections (issue 32), through the public REST API: schedules on the
 * demo fleet with one overdue and one due soon (so My actions and the Service tab have work at
 * once, and the next quarter-hour's due check puts them in the Inbox), a service history with
 * costs, and a failed pre-trip inspection with the issues it opened. Seeded once: a workspace
 * that has any schedule is left as it is.
 */
export async function seedDemoMaintenance(api: Api, vehicles: Vehicle[], log: (line: string) => void) {
  const [first, second, third] = vehicles;
  if (!first || !second || !third) return;
  const existing = await api.call<{ schedules: unknown[] }>("GET", "service-schedules");
  if (existing.schedules.length > 0) return;
  const schedule = (vehicleId: string, body: Record<string, unknown>) =>
    api.call<{ id: string }>("POST", "service-schedules", { vehicleId, ...body });
  // overdue: the 6-monthly inspection was last done 200 days ago
  await schedule(first.id, { name: "6-month safety inspection", everyDays: 180, lastDoneAt: day(200) });
  // due soon: 85 of 90 days gone
  await schedule(second.id, { name: "Oil change", everyDays: 90, everyMiles: 5000, lastDoneAt: day(85) });
  await schedule(third.id, { name: "Tyre rotation", everyMiles: 7500, everyDays: 365, lastDoneAt: day(20) });
  const brakes = await schedule(third.id, { name: "Brake service", everyDays: 365, lastDoneAt: day(400) });
  await api.call("POST", "service-entries", {
    vehicleId: third.id,
    date: day(2),
    description: "Brake pads and discs, front axle",
    costCents: 42_850,
    vendor: "Lakeside Fleet Service",
    scheduleIds: [brakes.id],
  });
  await api.call("POST", "service-entries", {
    vehicleId: third.id,
    date: day(20),
    description: "Tyre rotation and balance",
    costCents: 6_000,
    vendor: "Lakeside Fleet Service",
  });

  const forms = await api.call<{ forms: { id: string; items: { id: string; kind: string }[] }[] }>(
    "GET",
    "inspection-forms",
  );
  const form = forms.forms[0];
  if (!form) return;
  const failing: Record<string, string> = {
    lights: "Left rear brake light out",
    tyres: "Front right tyre worn near the limit",
  };
  const results = form.items
    .filter((i) => i.kind === "pass_fail")
    .map((i) => (failing[i.id] ? { itemId: i.id, pass: false, note: failing[i.id] } : { itemId: i.id, pass: true }));
  const inspection = await api.call<{ issueIds: string[] }>("POST", "inspections", {
    formId: form.id,
    vehicleId: second.id,
    results,
    signedName: "Demo Driver",
    odometerMiles: 48_210,
  });
  log(
    `Seeded 4 service schedules (one overdue, one due soon), 2 service entries and a failed inspection that opened ${inspection.issueIds.length} issues`,
  );
}
