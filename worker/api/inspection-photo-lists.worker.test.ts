import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId, type Inspection } from "../../shared/maintenance/inspections";
import { MAX_PHOTOS } from "../../shared/maintenance/photos";
import { pushRequest } from "../../shared/sync/sync-requests";
import { database } from "../../db/client";
import { inspections, issues, places } from "../../db/schema";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pushMutations } from "../test/sync";
import { findSession } from "../auth/session";
import { push } from "../sync/push";
import { serverMutators } from "../sync/mutators";

/**
 * Issue 39, finding 5: a phone's ordinary inspection, every item of the default form failed with
 * 10 photos each (110 photo ids), answered 500 over REST (all ids in one SQL IN list, over D1's
 * 100 bound values) and, through sync, was recorded as applied with no effect and no word to the
 * driver. Every IN list is chunked now (scripts/in-lists.test.ts finds one that is not), and a
 * mutation the server cannot apply is refused in the push's answer, which the browser shows.
 */
const db = database(env.DB);
const photoIds = () => Array.from({ length: MAX_PHOTOS }, () => crypto.randomUUID());
const allFailedWithPhotos = () =>
  DEFAULT_PRE_TRIP_ITEMS.map((item) => ({ itemId: item.id, pass: false, note: "Seen", photoIds: photoIds() }));
const issuesOf = (workspaceId: string) => db.select().from(issues).where(eq(issues.workspaceId, workspaceId)).all();

afterEach(() => vi.restoreAllMocks());

describe("an inspection naming 110 photos", () => {
  it("is stored over REST (201) with an issue per failed item, each with its photos", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const results = allFailedWithPhotos();
    expect(results.flatMap((r) => r.photoIds)).toHaveLength(110);
    const res = await call("/api/inspections", {
      method: "POST",
      token: member.token,
      json: { formId: defaultFormId(a.workspaceId), vehicleId, results, signedName: "Dana Driver" },
    });
    expect(res.status).toBe(201);
    const stored = (await res.json()) as Inspection;
    expect(stored.failedItems).toBe(DEFAULT_PRE_TRIP_ITEMS.length);
    const opened = await issuesOf(a.workspaceId);
    expect(opened).toHaveLength(DEFAULT_PRE_TRIP_ITEMS.length);
    expect(opened.flatMap((i) => i.photoIds).sort()).toEqual(results.flatMap((r) => r.photoIds).sort());
  });

  it("is applied through sync: no refusal, the inspection stored and its issues opened", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const id = crypto.randomUUID();
    const args = {
      id,
      vehicleId,
      formId: defaultFormId(a.workspaceId),
      results: allFailedWithPhotos(),
      signedName: "Robin",
    };
    expect((await pushMutations(member.token, [{ name: "submitInspection", args }])).refused).toBeUndefined();
    const row = await db.select().from(inspections).where(eq(inspections.id, id)).get();
    expect(row).toMatchObject({ failedItems: DEFAULT_PRE_TRIP_ITEMS.length, submittedByUserId: member.userId });
    expect(await issuesOf(a.workspaceId)).toHaveLength(DEFAULT_PRE_TRIP_ITEMS.length);
  });
});

describe("a pushed mutation the server cannot apply", () => {
  it("is refused in the push's answer with a message, not recorded as applied in silence", async () => {
    const a = await userWithWorkspace();
    const session = await findSession(db, a.token);
    // A bug in a mutator (or an input it did not expect): it throws something other than a refusal.
    vi.spyOn(serverMutators, "createPlace").mockRejectedValue(new TypeError("Cannot read properties of undefined"));
    const clientID = crypto.randomUUID();
    const placeId = crypto.randomUUID();
    const circle = { type: "Circle", center: [-87.63, 41.88], radius: 150 };
    const answer = await push(
      { env, db, waitUntil: () => {} },
      { ...session!, workspaceId: a.workspaceId },
      pushRequest([{ name: "createPlace", args: { id: placeId, name: "Depot", geometry: circle } }], {
        clientGroupID: crypto.randomUUID(),
        clientID,
      }),
    );
    expect(answer.refused).toEqual([
      { clientID, id: 1, name: "createPlace", message: "The server could not apply this change" },
    ]);
    expect(await db.select().from(places).where(eq(places.id, placeId)).get()).toBeUndefined();
  });

  it("is refused with the server's reason when the server refuses it (another workspace's vehicle)", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const answer = await pushMutations(a.token, [
      {
        name: "submitInspection",
        args: {
          id: crypto.randomUUID(),
          vehicleId: theirs,
          formId: defaultFormId(a.workspaceId),
          results: DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true })),
          signedName: "R",
        },
      },
    ]);
    expect(answer.refused).toEqual([
      expect.objectContaining({ name: "submitInspection", message: "No such vehicle in this workspace" }),
    ]);
  });
});
