import type { Vehicle } from "../../shared/fleet/vehicle";
import type { Api } from "./api";

/**
 * The demo's issues (issue 32): one assigned to the demo user, so the Inbox and My actions have
 * work in them from the start, and one nobody has taken yet. Seeded once: a workspace that has
 * any issue is left as it is.
 */
export async function seedDemoIssues(api: Api, vehicles: Vehicle[], log: (line: string) => void) {
  const [first, second] = vehicles;
  if (!first || !second) return;
  const existing = await api.call<{ issues: unknown[] }>("GET", "issues?status=all&limit=1");
  if (existing.issues.length > 0) return;
  const me = await api.call<{ viewer: { id: string } }>("GET", "me");
  const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  await api.call("POST", "issues", {
    vehicleId: first.id,
    title: "Brake pads worn, squealing when stopping",
    description: "Reported by the driver after the morning run. Front axle.",
    priority: "high",
    assigneeUserId: me.viewer.id,
    dueDate: due,
  });
  await api.call("POST", "issues", { vehicleId: second.id, title: "Passenger mirror cracked", priority: "low" });
  log("Reported 2 issues, one assigned to the demo user");
}
