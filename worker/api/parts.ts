import { Hono } from "hono";
import { z } from "zod";
import { partBody, partPatchBody, partQuery, vendorBody, vendorPatchBody } from "../../shared/maintenance/work-orders";
import { requireSession, workspaceSession } from "../auth/session";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";
import { partJson, vendorJson } from "./work-order-answers";
import { commit } from "./work-orders";
import {
  createPartWrites,
  createVendorWrites,
  deletePartWrites,
  deleteVendorWrites,
  updatePartWrites,
  updateVendorWrites,
} from "../maintenance/work-order-writes";
import { listParts, listVendors, toPartJson, toVendorJson } from "../maintenance/work-order-rows";

/**
 * The parts inventory and the vendors (issue 55, DESIGN.md "Maintenance"): members add and edit
 * them (the shop's daily work), owners and admins delete them, viewers read. Stock changes by hand
 * here and by completed work orders (worker/maintenance/work-order-completion.ts).
 */
export const partRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Parts in stock, by name; `belowReorder=true`: those at or below their reorder point",
      tag: "Maintenance",
      query: partQuery,
      response: z.object({ parts: z.array(partJson) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const rows = await listParts(c.var.db, workspaceId, c.req.valid("query").belowReorder === "true");
      return c.json({ parts: rows.map(toPartJson) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Add a part to the inventory",
      tag: "Maintenance",
      body: partBody,
      response: partJson,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { row, writes } = createPartWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id: crypto.randomUUID(),
        now: Date.now(),
      });
      await commit(c, workspaceId, writes);
      return c.json(toPartJson(row), 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary: "Change a part: its name, number, unit cost, quantity on hand (a count), reorder point or location",
      tag: "Maintenance",
      body: partPatchBody,
      response: partJson,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { row, writes } = await updatePartWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"));
      await commit(c, workspaceId, writes);
      return c.json(toPartJson(row));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete a part (owners and admins); lines that name it keep their figures",
      tag: "Maintenance",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      await commit(c, workspaceId, await deletePartWrites(c.var.db, workspaceId, c.req.param("id")));
      return c.body(null, 204);
    },
  );

export const vendorRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Vendors, by name",
      tag: "Maintenance",
      response: z.object({ vendors: z.array(vendorJson) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json({ vendors: (await listVendors(c.var.db, workspaceId)).map(toVendorJson) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Add a vendor: who does work for the fleet elsewhere",
      tag: "Maintenance",
      body: vendorBody,
      response: vendorJson,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { row, writes } = createVendorWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id: crypto.randomUUID(),
        now: Date.now(),
      });
      await commit(c, workspaceId, writes);
      return c.json(toVendorJson(row), 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary: "Change a vendor's name or contact",
      tag: "Maintenance",
      body: vendorPatchBody,
      response: vendorJson,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { row, writes } = await updateVendorWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"));
      await commit(c, workspaceId, writes);
      return c.json(toVendorJson(row));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete a vendor (owners and admins); its work orders keep naming it",
      tag: "Maintenance",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      await commit(c, workspaceId, await deleteVendorWrites(c.var.db, workspaceId, c.req.param("id")));
      return c.body(null, 204);
    },
  );
