import { Hono } from "hono";
import { wakeSilentWorkspaces } from "../beacon-watch/wake-watches";
import { relayAlerts } from "../alerts/relay";
import { developmentOnly } from "../lib/development-only";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/**
 * Development and benchmarks only: runs the cron's alert steps now (objects with silent beacons
 * woken to raise their alerts, the outbox relayed to the delivery queue), since `wrangler dev`
 * does not run the cron by itself.
 */
export const devAlertRoutes = new Hono<AppEnv>().post(
  "/alerts/relay",
  declared({ permission: "development", summary: "Relay pending alerts now (development only)", tag: "Development" }),
  developmentOnly,
  async (c) => {
    const raised = await wakeSilentWorkspaces(c.var.db, c.env);
    const relayed = await relayAlerts(c.var.db, c.env.ALERT_DELIVERIES, c.var.config);
    return c.json({ raised: raised.length, relayed });
  },
);
