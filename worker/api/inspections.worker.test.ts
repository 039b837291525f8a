/// <reference types="vite/client" />
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRE_TRIP_ITEMS,
  defaultFormId,
  type Inspection,
  type InspectionForm,
} from "../../shared/maintenance/inspections";
import { database } from "../../db/client";
import { inspectionForms, inspections, issues, workspaces } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";

const post = (path: string, token: string, json: unknown) => call(path, { method: "POST", token, json });
const formsOf = async (token: string) =>
  ((await (await call("/api/inspection-forms", { token })).json()) as { forms: InspectionForm[] }).forms;
const allPass = () => DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true }));

describe("inspection forms API", () => {
  it("gives every workspace the default pre-trip form, once, and lets owners and admins add forms", async () => {
    const a = await userWithWorkspace();
    const [first] = await formsOf(a.token);
    expect(first).toMatchObject({ id: defaultFormId(a.workspaceId), name: "Pre-trip inspection", isDefault: true });
    expect(first!.items.map((i) => i.label)).toEqual(
      expect.arrayContaining([
        "Brakes",
        "Tyres and wheels",
        "Lights and indicators",
        "Mirrors",
        "Horn",
        "Wipers and washers",
        "No fluid leaks",
        "Seat belts",
      ]),
    );
    expect(await formsOf(a.token)).toHaveLength(1);

    const admin = await memberWithRole(a.workspaceId, "admin");
    const member = await memberWithRole(a.workspaceId, "member");
    const json = {
      name: "Trailer",
      items: [
        { label: "Coupling", kind: "pass_fail" },
        { label: "Tyre pressure (psi)", kind: "number" },
      ],
    };
    expect((await post("/api/inspection-forms", member.token, json)).status).toBe(403);
    const created = await post("/api/inspection-forms", admin.token, json);
    expect(created.status).toBe(201);
    expect(((await created.json()) as InspectionForm).items.map((i) => i.id)).toEqual(["item-1", "item-2"]);
    expect((await formsOf(member.token)).map((f) => f.name)).toEqual(["Pre-trip inspection", "Trailer"]);
    const bad = await post("/api/inspection-forms", a.token, { name: "Empty", items: [] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toHaveProperty(
      "items",
    );
  });

  it("reading the forms writes nothing; the first edit stores the default form as the migration's SQL has it", async () => {
    // A workspace inserted before the migration's INSERT would have it; the SQL and the code must agree.
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const versionOf = async () =>
      (await db.select({ v: workspaces.version }).from(workspaces).where(eq(workspaces.id, a.workspaceId)).get())!.v;
    const before = await versionOf();
    await formsOf(a.token);
    const stored = () =>
      db
        .select()
        .from(inspectionForms)
        .where(eq(inspectionForms.id, defaultFormId(a.workspaceId)))
        .get();
    expect(await stored()).toBeUndefined();
    expect(await versionOf()).toBe(before);
    const edit = { method: "PATCH", token: a.token, json: { name: "Pre-trip inspection" } } as const;
    expect((await call(`/api/inspection-forms/${defaultFormId(a.workspaceId)}`, edit)).status).toBe(200);
    expect((await stored())!.items).toEqual(DEFAULT_PRE_TRIP_ITEMS);
    expect(await versionOf()).toBe(before + 1);
    const sql = (await import("../../migrations/0017_service_inspections.sql?raw")).default;
    expect(sql).toContain(JSON.stringify(DEFAULT_PRE_TRIP_ITEMS));
  });
});

describe("editing inspection forms", () => {
  const patch = (path: string, token: string, json: unknown) => call(path, { method: "PATCH", token, json });
  type Fields = { error: { fields: Record<string, string[]> } };

  it("lets owners and admins edit, refuses members and viewers, and hides other workspaces' forms", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const formPath = `/api/inspection-forms/${defaultFormId(a.workspaceId)}`;
    await formsOf(a.token);
    for (const role of ["member", "viewer"]) {
      const other = await memberWithRole(a.workspaceId, role);
      expect((await patch(formPath, other.token, { name: "Mine" })).status).toBe(403);
    }
    expect((await patch(formPath, b.token, { name: "Theirs" })).status).toBe(404);
    const admin = await memberWithRole(a.workspaceId, "admin");
    const renamed = await patch(formPath, admin.token, { name: "Daily check" });
    expect(renamed.status).toBe(200);
    expect((await formsOf(a.token))[0]).toMatchObject({ name: "Daily check", items: DEFAULT_PRE_TRIP_ITEMS });

    const bad = await patch(formPath, a.token, { name: "", items: [{ label: "Oil", kind: "colour" }] });
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as Fields).error.fields)).toEqual(
      expect.arrayContaining(["name", "items.0.kind"]),
    );
    const unknownId = await patch(formPath, a.token, { items: [{ id: "not-here", label: "Oil", kind: "pass_fail" }] });
    expect(unknownId.status).toBe(400);
    expect(((await unknownId.json()) as Fields).error.fields).toHaveProperty(["items.0.id"]);
  });

  it("keeps kept items' ids, gives new items new ones, and leaves past inspections readable", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const formId = defaultFormId(a.workspaceId);
    await formsOf(a.token);
    const before = await post("/api/inspections", a.token, {
      formId,
      vehicleId,
      results: allPass(),
      signedName: "Dana",
    });
    expect(before.status).toBe(201);
    const past = (await before.json()) as Inspection;

    const kept = DEFAULT_PRE_TRIP_ITEMS.filter((i) => i.id !== "horn").map((i) =>
      i.id === "brakes" ? { ...i, label: "Service and parking brakes" } : i,
    );
    const res = await patch(`/api/inspection-forms/${formId}`, a.token, {
      items: [...kept, { label: "Tachograph", kind: "pass_fail" }],
    });
    expect(res.status).toBe(200);
    const edited = (await res.json()) as InspectionForm;
    expect(edited.items.slice(0, kept.length)).toEqual(kept);
    const added = edited.items.at(-1)!;
    expect(added).toMatchObject({ label: "Tachograph", kind: "pass_fail" });
    expect(DEFAULT_PRE_TRIP_ITEMS.map((i) => i.id)).not.toContain(added.id);
    expect(edited.items.map((i) => i.id)).not.toContain("horn");

    const listed = (await (await call(`/api/inspections?vehicleId=${vehicleId}`, { token: a.token })).json()) as {
      inspections: Inspection[];
    };
    expect(listed.inspections.find((i) => i.id === past.id)?.results.map((r) => r.itemId)).toContain("horn");
    const failNew = edited.items.map((i) => ({ itemId: i.id, pass: i.id !== added.id }));
    const after = await post("/api/inspections", a.token, { formId, vehicleId, results: failNew, signedName: "Dana" });
    expect(after.status).toBe(201);
    expect((await after.json()) as Inspection).toMatchObject({ failedItems: 1 });
  });
});

describe("inspections API", () => {
  it("stores a submission with its failed items, lists it for its vehicle, and answers a resend with the stored one", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await insertVehicle(a.workspaceId);
    const id = crypto.randomUUID();
    const results = allPass().map((r) =>
      r.itemId === "brakes" ? { itemId: "brakes", pass: false, note: "Soft pedal" } : r,
    );
    const json = {
      id,
      formId: defaultFormId(a.workspaceId),
      vehicleId,
      odometerMiles: 12_345,
      results,
      signedName: "Dana Driver",
    };
    const res = await post("/api/inspections", member.token, json);
    expect(res.status).toBe(201);
    const stored = (await res.json()) as Inspection;
    expect(stored).toMatchObject({ id, failedItems: 1 });
    // the failed item opened one issue, linked to the inspection, numbered in the workspace
    expect(stored.issueIds).toHaveLength(1);
    const issue = (await (await call(`/api/issues/${stored.issueIds[0]}`, { token: a.token })).json()) as Record<
      string,
      unknown
    >;
    expect(issue).toMatchObject({
      number: 1,
      status: "open",
      vehicleId,
      sourceInspectionId: id,
      title: "Brakes: failed inspection",
      description: "Soft pedal",
      reportedByUserId: member.userId,
    });
    const again = await post("/api/inspections", member.token, json);
    expect(again.status).toBe(200);
    expect(
      await database(env.DB).select().from(inspections).where(eq(inspections.workspaceId, a.workspaceId)).all(),
    ).toHaveLength(1);
    expect(
      await database(env.DB).select().from(issues).where(eq(issues.workspaceId, a.workspaceId)).all(),
    ).toHaveLength(1);

    const listed = (
      (await (await call(`/api/inspections?vehicleId=${vehicleId}`, { token: a.token })).json()) as {
        inspections: Inspection[];
      }
    ).inspections;
    expect(listed).toMatchObject([{ id, signedName: "Dana Driver", odometerMiles: 12_345, failedItems: 1 }]);
  });

  it("refuses a viewer, an unanswered or unknown item, and a missing signature: nothing written", async () => {
    const a = await userWithWorkspace();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const vehicleId = await insertVehicle(a.workspaceId);
    const base = { formId: defaultFormId(a.workspaceId), vehicleId, results: allPass(), signedName: "Dana" };
    expect((await post("/api/inspections", viewer.token, base)).status).toBe(403);
    for (const [json, field] of [
      [{ ...base, results: allPass().slice(1) }, "results"],
      [{ ...base, results: [...allPass(), { itemId: "flux-capacitor", pass: true }] }, "results.11.itemId"],
      [{ ...base, results: allPass().map((r, n) => (n === 0 ? { itemId: r.itemId } : r)) }, "results.0.pass"],
      [{ ...base, signedName: " " }, "signedName"],
    ] as const) {
      const res = await post("/api/inspections", a.token, json);
      expect(res.status).toBe(400);
      expect(
        Object.keys(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields),
      ).toContain(field);
    }
    expect(
      await database(env.DB).select().from(inspections).where(eq(inspections.workspaceId, a.workspaceId)).all(),
    ).toEqual([]);
    expect(await database(env.DB).select().from(issues).where(eq(issues.workspaceId, a.workspaceId)).all()).toEqual([]);
  });

  it("answers another workspace's vehicle or form with 404", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await insertVehicle(a.workspaceId);
    const theirs = await insertVehicle(b.workspaceId);
    const results = allPass();
    expect(
      (
        await post("/api/inspections", a.token, {
          formId: defaultFormId(a.workspaceId),
          vehicleId: theirs,
          results,
          signedName: "x",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await post("/api/inspections", a.token, {
          formId: defaultFormId(b.workspaceId),
          vehicleId: mine,
          results,
          signedName: "x",
        })
      ).status,
    ).toBe(404);
    expect((await call(`/api/inspections?vehicleId=${theirs}`, { token: a.token })).status).toBe(404);
  });
});
