import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/maintenance/inspections";
import { PHOTO_UPLOADS_PER_MINUTE, UNATTACHED_PHOTO_MS, type PhotoUsage } from "../../shared/maintenance/photos";
import { database } from "../../db/client";
import { photoPurges, photos, users, workspaces } from "../../db/schema";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { collectUnattachedPhotos, purgeDeletedWorkspacePhotos } from "./photo-collector";

/**
 * Issue 39, finding 4 (docs/decisions/0042): photos had no bounds. 51 uploads of 5 MB in 5 s were
 * all accepted, and nothing ever left the bucket. Now: a quota per workspace, a rate per member, a
 * photo named by nothing is collected after a day, and a deleted workspace's photos leave R2.
 */
const db = database(env.DB);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const upload = async (token: string, body: Uint8Array = PNG) =>
  call("/api/photos", { method: "POST", token, body, headers: { "Content-Type": "image/png" } });
const uploaded = async (token: string) => {
  const res = await upload(token);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
};
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;
const usageOf = async (token: string) => (await (await call("/api/photos/usage", { token })).json()) as PhotoUsage;
const rowOf = (id: string) => db.select().from(photos).where(eq(photos.id, id)).get();
const ageBy = (id: string, ms: number) =>
  db
    .update(photos)
    .set({ createdAt: Date.now() - ms })
    .where(eq(photos.id, id));

describe("the workspace's photo quota", () => {
  it("refuses an upload that would pass it (409 limit_reached), keeping nothing, and says used / allowed", async () => {
    const a = await userWithWorkspace();
    await db
      .update(workspaces)
      .set({ photoQuotaBytes: PNG.byteLength * 2 })
      .where(eq(workspaces.id, a.workspaceId));
    await uploaded(a.token);
    await uploaded(a.token);
    const over = await upload(a.token);
    expect(over.status).toBe(409);
    expect(await errorOf(over)).toMatchObject({ code: "limit_reached", message: expect.stringMatching(/32 bytes/) });
    expect(await db.select().from(photos).where(eq(photos.workspaceId, a.workspaceId)).all()).toHaveLength(2);
    expect((await env.PHOTOS.list({ prefix: `${a.workspaceId}/` })).objects).toHaveLength(2);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect(await usageOf(viewer.token)).toEqual({
      usedBytes: PNG.byteLength * 2,
      allowedBytes: PNG.byteLength * 2,
      uploadsPerMinute: PHOTO_UPLOADS_PER_MINUTE,
    });
    // another workspace's quota is its own
    const b = await userWithWorkspace();
    expect((await usageOf(b.token)).usedBytes).toBe(0);
    await uploaded(b.token);
  });

  it("holds when uploads arrive at once: parallel uploads cannot pass it together", async () => {
    const a = await userWithWorkspace();
    await db
      .update(workspaces)
      .set({ photoQuotaBytes: PNG.byteLength * 3 })
      .where(eq(workspaces.id, a.workspaceId));
    const members = await Promise.all([1, 2, 3, 4, 5, 6].map(() => memberWithRole(a.workspaceId, "member")));
    const statuses = await Promise.all(members.map(async (m) => (await upload(m.token)).status));
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect((await usageOf(a.token)).usedBytes).toBe(PNG.byteLength * 3);
    expect((await env.PHOTOS.list({ prefix: `${a.workspaceId}/` })).objects).toHaveLength(3);
  });
});

describe("the upload rate per member", () => {
  it(`answers 429 with Retry-After and a JSON error past ${PHOTO_UPLOADS_PER_MINUTE} a minute, for that member only`, async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    for (let i = 0; i < PHOTO_UPLOADS_PER_MINUTE; i++) expect((await upload(member.token)).status).toBe(201);
    const refused = await upload(member.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await errorOf(refused)).code).toBe("rate_limited");
    // a colleague, and the same person in another workspace, still upload
    expect((await upload(a.token)).status).toBe(201);
  });
});

describe("collecting photos", () => {
  it("deletes a photo named by nothing a day after its upload, bytes and row; keeps those records name", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const [lonely, onIssue, onInspection, fresh] = [
      await uploaded(a.token),
      await uploaded(a.token),
      await uploaded(a.token),
      await uploaded(a.token),
    ];
    const issue = await call("/api/issues", {
      method: "POST",
      token: a.token,
      json: { vehicleId, title: "Dent", priority: "low", photoIds: [onIssue] },
    });
    expect(issue.status).toBe(201);
    const results = DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true, photoIds: [] as string[] }));
    results[0]!.photoIds = [onInspection];
    const inspection = await call("/api/inspections", {
      method: "POST",
      token: a.token,
      json: { formId: defaultFormId(a.workspaceId), vehicleId, results, signedName: "Dana" },
    });
    expect(inspection.status).toBe(201);
    // Another workspace's record naming the lonely photo's id does not keep it.
    const b = await userWithWorkspace();
    const theirVehicle = await vehicleWithOdometer(b.workspaceId, 1);
    const theirs = await call("/api/issues", {
      method: "POST",
      token: b.token,
      json: { vehicleId: theirVehicle, title: "Copied id", priority: "low", photoIds: [lonely] },
    });
    expect(theirs.status).toBe(404);
    for (const id of [lonely, onIssue, onInspection]) await ageBy(id, UNATTACHED_PHOTO_MS + 60_000);

    await collectUnattachedPhotos(db, env.PHOTOS);
    expect(await rowOf(lonely)).toBeUndefined();
    expect(await env.PHOTOS.head(`${a.workspaceId}/${lonely}`)).toBeNull();
    expect((await call(`/api/photos/${lonely}`, { token: a.token })).status).toBe(404);
    for (const id of [onIssue, onInspection]) {
      expect((await rowOf(id))?.attachedAt).toEqual(expect.any(Number));
      expect((await call(`/api/photos/${id}`, { token: a.token })).status).toBe(200);
    }
    // not a day old yet: left alone
    expect(await rowOf(fresh)).toMatchObject({ attachedAt: null });
    expect(await env.PHOTOS.head(`${a.workspaceId}/${fresh}`)).not.toBeNull();
  });

  it("deletes every photo of a workspace deleted with its account from the bucket", async () => {
    const leaver = await userWithWorkspace();
    const { token, workspaceId } = leaver;
    const { email } = (await db.select().from(users).where(eq(users.id, leaver.userId)).get())!;
    const ids = [await uploaded(token), await uploaded(token)];
    // a neighbour's photo stays
    const b = await userWithWorkspace();
    const neighbours = await uploaded(b.token);

    const deleted = await call("/api/account/delete", { method: "POST", token, json: { email } });
    expect(deleted.status).toBe(200);
    expect(
      await db
        .select()
        .from(photoPurges)
        .where(eq(photoPurges.prefix, `${workspaceId}/`))
        .all(),
    ).toHaveLength(1);
    await purgeDeletedWorkspacePhotos(db, env.PHOTOS);
    for (const id of ids) expect(await env.PHOTOS.head(`${workspaceId}/${id}`)).toBeNull();
    expect(
      await db
        .select()
        .from(photoPurges)
        .where(eq(photoPurges.prefix, `${workspaceId}/`))
        .all(),
    ).toEqual([]);
    expect(await env.PHOTOS.head(`${b.workspaceId}/${neighbours}`)).not.toBeNull();
  });
});
