import type { Vehicle } from "../../shared/fleet/vehicle";
import type { Api } from "./api";

const DAY_MS = 86_400_000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo's renewals and expenses (issue 42 part B), through the public REST API: the first
 * vehicle's registration falls due in 12 days (so My actions and its Costs tab show one due soon),
 * the others' insurance runs months ahead, and a few expenses (insurance, tolls, parking) give the
 * Costs tab and the Fuel page's Expenses something to show. Seeded once: a workspace with any
 * renewal is left as it is.
 */
export async function seedDemoCosts(api: Api, vehicles: Vehicle[], log: (line: string) => void) {
  const existing = await api.call<{ renewals: unknown[] }>("GET", "renewals");
  if (existing.renewals.length > 0 || vehicles.length === 0) return;
  const [first, ...rest] = vehicles;
  await api.call("POST", "renewals", { vehicleId: first!.id, kind: "registration", dueDate: day(12) });
  for (const [i, v] of rest.slice(0, 3).entries()) {
    await api.call("POST", "renewals", { vehicleId: v.id, kind: "insurance", dueDate: day(90 + i * 30) });
  }
  const expenses = [
    { vehicleId: first!.id, date: day(-40), kind: "insurance", costCents: 148_000, note: "Annual policy" },
    { vehicleId: first!.id, date: day(-6), kind: "tolls", costCents: 1_250, note: "Bridge" },
    { vehicleId: (rest[0] ?? first)!.id, date: day(-3), kind: "parking", costCents: 2_400, note: "Downtown garage" },
  ];
  for (const e of expenses) await api.call("POST", "expenses", e);
  log(`Seeded ${1 + Math.min(rest.length, 3)} renewals (one registration due soon) and ${expenses.length} expenses`);
}
