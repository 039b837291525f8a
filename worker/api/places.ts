import { and, asc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { MAX_PLACES, placeBodySchema, placePatchSchema, type Place } from "../../shared/places/places";
import { placeTable } from "../../shared/places/place-fields";
import { requireSession, workspaceSession } from "../auth/session";
import type { Db } from "../../db/client";
import { places } from "../../db/schema";
import { insertPlaceUnderCap } from "../../db/capped-insert";
import { limitReached, notFound } from "../lib/errors";
import { livePlaces } from "../sync/places-mutators";
import type { AppEnv } from "../types";
import { z } from "zod";
import { placeSchema } from "../../shared/places/places";
import { declared } from "./route-declaration/declare";
import { commitWatched, editorSession } from "./watch-edits";

/**
 * Places for integrators (DESIGN.md "Places and alerts"); the app itself edits them through sync
 * mutators, which write the same rows. Every query is scoped to the caller's workspace; another
 * workspace's place is a 404 like one that does not exist.
 */
const toPlace = (row: typeof places.$inferSelect): Place => ({
  id: row.id,
  ...placeTable.valuesOf(row),
  geometry: row.geometry,
});

async function livePlace(db: Db, workspaceId: string, id: string) {
  const row = await db
    .select()
    .from(places)
    .where(and(eq(places.id, id), eq(places.workspaceId, workspaceId), eq(places.deleted, false)))
    .get();
  if (!row) throw notFound("No such place in this workspace");
  return row;
}

export const placeRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "The workspace's places",
      tag: "Places",
      response: z.object({ places: z.array(placeSchema) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const rows = await c.var.db
        .select()
        .from(places)
        .where(and(eq(places.workspaceId, workspaceId), eq(places.deleted, false)))
        .orderBy(asc(places.name))
        .all();
      return c.json({ places: rows.map(toPlace) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Create a place",
      tag: "Places",
      body: placeBodySchema,
      response: placeSchema,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = editorSession(c.var.session);
      const { geometry, ...given } = c.req.valid("json");
      const place: Place = { id: crypto.randomUUID(), ...placeTable.given(given), geometry };
      const db = c.var.db;
      if ((await livePlaces(db, workspaceId)) >= MAX_PLACES)
        throw limitReached(`A workspace has at most ${MAX_PLACES.toLocaleString("en-US")} places`);
      // the cap is also in the insert itself: a creation racing this one cannot pass it too
      await commitWatched(c, workspaceId, (stamp) => [
        insertPlaceUnderCap(db, { ...place, workspaceId, version: stamp }, MAX_PLACES),
      ]);
      const inserted = await db.select({ id: places.id }).from(places).where(eq(places.id, place.id)).get();
      if (!inserted) throw limitReached(`A workspace has at most ${MAX_PLACES.toLocaleString("en-US")} places`);
      return c.json(place, 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary: "Change a place",
      tag: "Places",
      body: placePatchSchema,
      response: placeSchema,
    }),
    async (c) => {
      const { workspaceId } = editorSession(c.var.session);
      const db = c.var.db;
      const current = await livePlace(db, workspaceId, c.req.param("id"));
      const { geometry, ...patch } = c.req.valid("json");
      // drizzle leaves an undefined geometry (not reshaped) out of the SET
      const changes = { ...placeTable.named(patch), geometry };
      await commitWatched(c, workspaceId, (stamp) => [
        db
          .update(places)
          .set({ ...changes, version: stamp })
          .where(and(eq(places.id, current.id), eq(places.workspaceId, workspaceId))),
      ]);
      return c.json(toPlace({ ...current, ...changes, geometry: geometry ?? current.geometry }));
    },
  )
  .delete(
    "/:id",
    declared({ permission: "fleet.edit", summary: "Delete a place", tag: "Places", status: 204 }),
    async (c) => {
      const { workspaceId } = editorSession(c.var.session);
      const db = c.var.db;
      const current = await livePlace(db, workspaceId, c.req.param("id"));
      await commitWatched(c, workspaceId, (stamp) => [
        db
          .update(places)
          .set({ deleted: true, version: stamp })
          .where(and(eq(places.id, current.id), eq(places.workspaceId, workspaceId))),
      ]);
      return c.body(null, 204);
    },
  );
