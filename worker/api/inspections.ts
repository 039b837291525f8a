import { and, desc, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { z } from "zod";
import {
  inspectionFormBodySchema,
  inspectionSubmissionSchema,
  inspectionFormPatchSchema,
  type Inspection,
  type InspectionItem,
} from "../../shared/maintenance/inspections";
import { can } from "../../shared/account/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { inspectionForms, inspections } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { inspection, inspectionForm } from "./maintenance-answers";
import { declared } from "./route-declaration/declare";
import { commitWorkspaceWrite } from "../workspace-object";
import { storeDefaultForm, toForm, workspaceForm, workspaceForms } from "../maintenance/inspection-forms";
import { inspectionWrites, type InspectionRow } from "../maintenance/inspection-writes";
import { vehicleReadings } from "../maintenance/readings";

/**
 * Inspection forms and submissions for integrators (DESIGN.md "Maintenance"). Owners and admins
 * add forms; members submit inspections; each failed pass/fail item opens one issue linked to the
 * inspection, in the same transaction. A submission may carry its own id (the app's offline
 * queue): sending it again answers the stored one, never a second copy.
 */
const INSPECTIONS_LIMIT = 500;
const iso = (ms: number) => new Date(ms).toISOString();

export const toInspection = (r: InspectionRow): Inspection => ({
  id: r.id,
  formId: r.formId,
  vehicleId: r.vehicleId,
  odometerMiles: r.odometerMiles,
  results: r.results,
  signedName: r.signedName,
  failedItems: r.failedItems,
  issueIds: r.issueIds,
  submittedByUserId: r.submittedByUserId,
  submittedAt: iso(r.submittedAt),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
const writeContext = (c: Context<AppEnv, any, any>) => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

function sessionThat(session: SessionInfo, action: "fleet.edit" | "maintenance.manage") {
  const scoped = workspaceSession(session);
  if (!can(session.role, action))
    throw forbidden(
      action === "fleet.edit" ? "Viewers cannot submit inspections" : "Only owners and admins manage inspection forms",
    );
  return scoped;
}

/**
 * The edited items: a kept item keeps its id (past inspections' results name it); a new one gets an
 * id never used by this form, so a removed item's id is never given a new meaning.
 */
function editedItems(
  current: InspectionItem[],
  edited: { id?: string; label: string; kind: InspectionItem["kind"] }[],
): InspectionItem[] {
  const known = new Set(current.map((i) => i.id));
  const used = new Set<string>();
  const fields: Record<string, string[]> = {};
  const items = edited.map((item, n) => {
    if (item.id !== undefined && (!known.has(item.id) || used.has(item.id)))
      fields[`items.${n}.id`] = ["Not an item of this form (leave it out for a new item)"];
    const id = item.id ?? `item-${crypto.randomUUID().slice(0, 8)}`;
    used.add(id);
    return { id, label: item.label, kind: item.kind };
  });
  const [first] = Object.keys(fields);
  if (first) throw badRequest(`${first}: not an item of this form`, fields);
  return items;
}

export const inspectionFormRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Inspection forms (the default pre-trip one included)",
      tag: "Maintenance",
      response: z.object({ forms: z.array(inspectionForm) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json({ forms: (await workspaceForms(c.var.db, workspaceId)).map(toForm) });
    },
  )
  .post(
    "/",
    declared({
      permission: "maintenance.manage",
      summary: "Add an inspection form",
      tag: "Maintenance",
      body: inspectionFormBodySchema,
      response: inspectionForm,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const input = c.req.valid("json");
      const used = new Set<string>();
      // Item ids are stable (results name them); one not given is made from its position.
      const items = input.items.map((item, n) => {
        let id = item.id ?? `item-${n + 1}`;
        while (used.has(id)) id = `${id}-${n + 1}`;
        used.add(id);
        return { id, label: item.label, kind: item.kind };
      });
      const row = { id: crypto.randomUUID(), workspaceId, name: input.name, items, isDefault: false };
      const db = c.var.db;
      await commitWorkspaceWrite(
        writeContext(c),
        workspaceId,
        (stamp) => [db.insert(inspectionForms).values({ ...row, version: stamp })],
        { readYourWrites: true },
      );
      return c.json(toForm({ ...row, version: 0, deleted: false, createdVersion: null, createdAt: Date.now() }), 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary:
        "Edit a form: kept items send their id (it never changes), new ones none; past inspections are unchanged",
      tag: "Maintenance",
      body: inspectionFormPatchSchema,
      response: inspectionForm,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const input = c.req.valid("json");
      const db = c.var.db;
      const form = await workspaceForm(db, workspaceId, c.req.param("id"));
      if (!form) throw notFound("No such inspection form in this workspace");
      const changes = {
        name: input.name ?? form.name,
        items: input.items ? editedItems(form.items, input.items) : form.items,
      };
      const where = and(eq(inspectionForms.id, form.id), eq(inspectionForms.workspaceId, workspaceId));
      await commitWorkspaceWrite(
        writeContext(c),
        workspaceId,
        (stamp) => [
          ...storeDefaultForm(db, form, stamp),
          db
            .update(inspectionForms)
            .set({ ...changes, version: stamp })
            .where(where),
        ],
        { readYourWrites: true },
      );
      return c.json(toForm({ ...form, ...changes }), 200);
    },
  );

export const listQuery = z.object({ vehicleId: z.string().min(1).max(100).optional() });

export const inspectionRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Inspections submitted (the latest 500)",
      tag: "Maintenance",
      query: listQuery,
      response: z.object({ inspections: z.array(inspection) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("query");
      if (vehicleId && !(await vehicleReadings(c.var.db, workspaceId, [vehicleId])).has(vehicleId))
        throw notFound("No such vehicle in this workspace");
      const scope = [eq(inspections.workspaceId, workspaceId), eq(inspections.deleted, false)];
      if (vehicleId) scope.push(eq(inspections.vehicleId, vehicleId));
      const rows = await c.var.db
        .select()
        .from(inspections)
        .where(and(...scope))
        .orderBy(desc(inspections.submittedAt))
        .limit(INSPECTIONS_LIMIT)
        .all();
      return c.json({ inspections: rows.map(toInspection) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Submit an inspection: each failed item opens an issue; 200 when this id was submitted already",
      tag: "Maintenance",
      body: inspectionSubmissionSchema,
      response: inspection,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = sessionThat(c.var.session, "fleet.edit");
      const now = Date.now();
      const made = await inspectionWrites(c.var.db, workspaceId, c.req.valid("json"), { userId, now });
      if (made.existing) return c.json(toInspection(made.existing), 200);
      await commitWorkspaceWrite(writeContext(c), workspaceId, made.writes, { readYourWrites: true });
      return c.json(
        toInspection({ ...made.row, version: 0, deleted: false, createdVersion: null, createdAt: now }),
        201,
      );
    },
  );
