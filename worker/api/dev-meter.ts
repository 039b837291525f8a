import { Hono } from "hono";
import { d1Meter } from "../../db/d1-meter";
import { developmentOnly } from "../lib/development-only";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/**
 * Development and tests only: this isolate's D1 work counter (db/d1-meter.ts), for the
 * fan-out benchmark. POST turns it on and zeroes it; GET reads it.
 */
export const devMeterRoutes = new Hono<AppEnv>()
  .use(developmentOnly)
  .post(
    "/d1-meter",
    declared({ permission: "development", summary: "Reset the D1 meter (development only)", tag: "Development" }),
    (c) => {
      Object.assign(d1Meter, { on: true, roundTrips: 0, statements: 0, byStatement: {} });
      return c.json(d1Meter);
    },
  )
  .get(
    "/d1-meter",
    declared({ permission: "development", summary: "The D1 meter (development only)", tag: "Development" }),
    (c) => c.json(d1Meter),
  );
