import { Hono } from "hono";
import { timelineEventQuerySchema, timelineRangeProblem } from "../../shared/fleet/timeline-events";
import { requireSession, workspaceSession } from "../auth/session";
import { badRequest } from "../lib/errors";
import { declared } from "./route-declaration/declare";
import { timelineEventsAnswer } from "./fuel-answers";
import type { AppEnv } from "../types";

import { fuelVehicle } from "../fuel/fuel-writes";
import { vehicleTimelineEvents } from "../timeline/vehicle-events";

/**
 * `GET /api/vehicles/{id}/events?from=&to=&type=` (DESIGN.md "Fuel, costs and renewals"):
 * everyone in the workspace reads; another workspace's vehicle is a 404 like a missing one.
 */
export const vehicleEventRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/:vehicleId/events",
  declared({
    permission: "workspace.view",
    summary:
      "A vehicle's timeline events starting in the range (default the last 7 days), oldest first: trips, stops, and refuels and fuel drops seen in the beacon's fuel level",
    tag: "Fuel and costs",
    query: timelineEventQuerySchema,
    response: timelineEventsAnswer,
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const query = c.req.valid("query");
    const problem = timelineRangeProblem(query);
    if (problem) throw badRequest(problem, { from: [problem] });
    const vehicle = await fuelVehicle(c.var.db, workspaceId, c.req.param("vehicleId"));
    // Events reach D1 in the workspace object's flush: the read waits for it (worker/api/settle-live-reads.ts).
    const events = await vehicleTimelineEvents(c.var.db, workspaceId, vehicle, query, Date.now());
    return c.json({ events });
  },
);
