import { and, count, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { createPlaceArgs, deletePlaceArgs, MAX_PLACES, updatePlaceArgs } from "../../shared/places/places";
import { placeTable } from "../../shared/places/place-fields";
import type { Db } from "../../db/client";
import type { MutationCaller } from "./issue-mutators";
import { places } from "../../db/schema";
import { insertPlaceUnderCap } from "../../db/capped-insert";
import { parseArgs, type ArgsSchema } from "./mutation-args";

type Refuse = (message: string) => never;

/** How many live places the workspace has (the cap, issue 34). */
export async function livePlaces(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(places)
    .where(and(eq(places.workspaceId, workspaceId), eq(places.deleted, false)))
    .get();
  return row?.n ?? 0;
}

/**
 * The authoritative side of shared/places/places-mutators.ts. An id already used by another workspace's
 * place is refused (ids are the browser's choice; a guessed one must not reach across).
 */
export function placeServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const find = (db: Db, id: string) =>
    db.select({ workspaceId: places.workspaceId, deleted: places.deleted }).from(places).where(eq(places.id, id)).get();
  const scoped = (workspaceId: string, id: string) => and(eq(places.id, id), eq(places.workspaceId, workspaceId));

  return {
    async createPlace(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, geometry, ...given } = parse(createPlaceArgs, input);
      const fields = placeTable.given(given);
      const existing = await find(db, id);
      if (existing && existing.workspaceId !== workspaceId) refuse("place id taken");
      if (existing)
        return [
          db
            .update(places)
            .set({ ...fields, geometry, deleted: false, version: caller.stamp })
            .where(scoped(workspaceId, id)),
        ];
      if ((await livePlaces(db, workspaceId)) >= MAX_PLACES) refuse(`at most ${MAX_PLACES} places per workspace`);
      // the cap is also in the insert: at the cap (a racing push or API call) it inserts nothing
      return [insertPlaceUnderCap(db, { id, workspaceId, ...fields, geometry, version: caller.stamp }, MAX_PLACES)];
    },
    async updatePlace(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, geometry, ...changes } = parse(updatePlaceArgs, input);
      const existing = await find(db, id);
      if (!existing || existing.workspaceId !== workspaceId || existing.deleted)
        refuse("no such place in this workspace");
      return [
        db
          .update(places)
          // drizzle leaves an undefined geometry (not reshaped) out of the SET
          .set({ ...placeTable.named(changes), geometry, version: caller.stamp })
          .where(scoped(workspaceId, id)),
      ];
    },
    async deletePlace(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id } = parse(deletePlaceArgs, input);
      const existing = await find(db, id);
      if (!existing || existing.workspaceId !== workspaceId || existing.deleted)
        refuse("no such place in this workspace");
      return [db.update(places).set({ deleted: true, version: caller.stamp }).where(scoped(workspaceId, id))];
    },
  };
}
