import type { Vehicle } from "../../shared/fleet/vehicle";
import type { Api } from "./api";
import { DEMO_MEMBER } from "./demo-extras";

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString();

/**
 * The demo's shop (issue 55), through the public REST API: a few parts (brake pads below their
 * reorder point, so My actions has one to reorder), two vendors, a work order in progress with a
 * labour and a part line, and one completed last week that resolved an issue and restarted a
 * service schedule (its service entry, labour and parts in the cost report). Seeded once: a
 * workspace that has any part is left as it is.
 */
export async function seedDemoShop(api: Api, workspaceId: string, vehicles: Vehicle[], log: (line: string) => void) {
  const [first, , , fourth] = vehicles;
  if (!first || !fourth) return;
  const existing = await api.call<{ parts: unknown[] }>("GET", "parts");
  if (existing.parts.length > 0) return;
  // The demo's second member is the mechanic (signed in as them, My actions lists their work orders).
  const { members } = await api.call<{ members: { userId: string; email: string }[] }>(
    "GET",
    `workspaces/${workspaceId}/members`,
  );
  const mechanicUserId = members.find((m) => m.email === DEMO_MEMBER.email)?.userId ?? null;
  const post = <T = { id: string }>(path: string, body: unknown) => api.call<T>("POST", path, body);
  const pads = await post("parts", {
    name: "Brake pads (front set)",
    number: "BP-4471",
    unitCostCents: 6_450,
    quantityOnHand: 2,
    reorderPoint: 4,
    location: "Bay 2, shelf B",
  });
  const filter = await post("parts", {
    name: "Oil filter",
    number: "OF-212",
    unitCostCents: 1_150,
    quantityOnHand: 18,
    reorderPoint: 6,
    location: "Bay 1",
  });
  const coolant = await post("parts", {
    name: "Coolant, 1 gal",
    unitCostCents: 2_200,
    quantityOnHand: 9,
    reorderPoint: 3,
    location: "Fluids cage",
  });
  await post("parts", {
    name: "Wiper blades, 22 in",
    unitCostCents: 1_800,
    quantityOnHand: 12,
    reorderPoint: 4,
    location: "Bay 1",
  });
  await post("vendors", {
    name: "Northside Tire & Alignment",
    phone: "312-555-0142",
    note: "Tyres, alignment, balancing",
  });
  await post("vendors", {
    name: "Lakeside Fleet Service",
    email: "service@lakeside.example",
    note: "Dealer warranty work, diagnostics",
  });

  // In progress: a brake job on the first vehicle, one mechanic, a labour and a part line.
  const brakeJob = await post("work-orders", {
    vehicleId: first.id,
    description: "Front brakes grinding",
    assigneeUserId: mechanicUserId,
    tasks: ["Replace front pads", "Check rotors"],
  });
  await api.call("PATCH", `work-orders/${brakeJob.id}`, { status: "in_progress" });
  await post(`work-orders/${brakeJob.id}/lines`, {
    kind: "labor",
    quantity: 1.5,
    unitCostCents: 9_500,
    userId: mechanicUserId,
  });
  await post(`work-orders/${brakeJob.id}/lines`, { kind: "part", quantity: 1, unitCostCents: 6_450, partId: pads.id });

  // Completed last week: a coolant leak fixed, the coolant flush schedule restarted.
  const leak = await post("issues", {
    vehicleId: fourth.id,
    title: "Coolant leak under the radiator",
    priority: "high",
  });
  const flush = await post("service-schedules", {
    vehicleId: fourth.id,
    name: "Coolant flush",
    everyDays: 365,
    lastDoneAt: daysAgo(400).slice(0, 10),
  });
  const done = await post("work-orders", {
    vehicleId: fourth.id,
    issueIds: [leak.id],
    scheduleIds: [flush.id],
    description: "Radiator hose and coolant flush",
    assigneeUserId: mechanicUserId,
  });
  await post(`work-orders/${done.id}/lines`, {
    kind: "labor",
    quantity: 2,
    unitCostCents: 9_500,
    description: "Replace lower radiator hose, flush",
  });
  await post(`work-orders/${done.id}/lines`, { kind: "part", quantity: 2, unitCostCents: 2_200, partId: coolant.id });
  await post(`work-orders/${done.id}/lines`, { kind: "part", quantity: 1, unitCostCents: 1_150, partId: filter.id });
  await api.call("PATCH", `work-orders/${done.id}`, { taxCents: 410 });
  await post(`work-orders/${done.id}/complete`, { completedAt: daysAgo(6), signedName: "Demo Mechanic" });
  log(
    "Seeded a shop: 4 parts (brake pads to reorder), 2 vendors, a work order in progress and one completed last week",
  );
}
