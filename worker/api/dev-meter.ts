import { Hono } from "hono";
import { d1Meter } from "../../db/d1-meter";
import { developmentOnly } from "../lib/development-only";
import type { AppEnv } from "../types";

/**
 * Development and tests only: this isolate's D1 work counter (db/d1-meter.ts), for the
 * fan-out benchmark. POST turns it on and zeroes it; GET reads it.
 */
export const devMeterRoutes = new Hono<AppEnv>()
  .use(developmentOnly)
  .post("/d1-meter", (c) => {
    Object.assign(d1Meter, { on: true, roundTrips: 0, statements: 0, byStatement: {} });
    return c.json(d1Meter);
  })
  .get("/d1-meter", (c) => c.json(d1Meter));
