import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { photos } from "../../db/schema";
import { photoIdFor } from "../../shared/maintenance/photos";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);

const upload = (token: string, body: BodyInit, type = "image/png", query = "") =>
  call(`/api/photos${query}`, { method: "POST", token, body, headers: { "Content-Type": type } });

describe("photos API", () => {
  it("stores an image and serves it to members of its workspace only", async () => {
    const a = await userWithWorkspace();
    const res = await upload(a.token, PNG);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    const got = await call(`/api/photos/${id}`, { token: a.token });
    expect(got.status).toBe(200);
    expect(got.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);

    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await call(`/api/photos/${id}`, { token: viewer.token })).status).toBe(200);

    const b = await userWithWorkspace();
    const other = await call(`/api/photos/${id}`, { token: b.token });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await call(`/api/photos/${crypto.randomUUID()}`, { token: a.token })).status).toBe(404);
    expect((await call(`/api/photos/not-a-uuid`, { token: a.token })).status).toBe(404);
    expect((await call(`/api/photos/${id}`)).status).toBe(401);
  });

  it("chooses the id itself from the uploader and the device's reference, so a record made offline can name the photo first; a retry is the same photo", async () => {
    const a = await userWithWorkspace();
    const ref = crypto.randomUUID();
    const id = await photoIdFor(a.workspaceId, a.userId, ref);
    const first = await upload(a.token, JPEG, "image/jpeg", `?ref=${ref}`);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ id });
    const again = await upload(a.token, PNG, "image/png", `?ref=${ref}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id });
    // a retry never replaces what was stored
    expect((await call(`/api/photos/${id}`, { token: a.token })).headers.get("Content-Type")).toBe("image/jpeg");
    // without a reference (an integrator), a new photo each time
    const plain = (await (await upload(a.token, PNG)).json()) as { id: string };
    expect(plain.id).not.toBe(id);
    // the client cannot name the id
    const named = await upload(a.token, PNG, "image/png", `?id=${crypto.randomUUID()}`);
    expect(named.status).toBe(400);
    expect(((await named.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
    expect((await upload(a.token, PNG, "image/png", "?ref=nope")).status).toBe(400);
  });

  it("a member who sees a photo id a record names cannot put other bytes under it before the real upload (issue 39)", async () => {
    const a = await userWithWorkspace();
    const driver = await memberWithRole(a.workspaceId, "member");
    const other = await memberWithRole(a.workspaceId, "member");
    // The driver's phone, offline: the inspection's photo has its id before it is uploaded.
    const ref = crypto.randomUUID();
    const evidence = await photoIdFor(a.workspaceId, driver.userId, ref);
    // Another member, who sees that id in the synced store, tries every way to upload under it.
    for (const query of [`?ref=${evidence}`, `?ref=${ref}`, `?id=${evidence}`, ""]) {
      const res = await upload(other.token, JPEG, "image/jpeg", query);
      if (res.status < 300) expect(((await res.json()) as { id: string }).id).not.toBe(evidence);
    }
    expect(await database(env.DB).select().from(photos).where(eq(photos.id, evidence)).get()).toBeUndefined();
    // Another workspace neither.
    const b = await userWithWorkspace();
    expect(((await (await upload(b.token, JPEG, "image/jpeg", `?ref=${ref}`)).json()) as { id: string }).id).not.toBe(
      evidence,
    );
    // The driver's upload, when the network returns, stores the real photo under it.
    expect((await upload(driver.token, PNG, "image/png", `?ref=${ref}`)).status).toBe(201);
    const got = await call(`/api/photos/${evidence}`, { token: a.token });
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
  });

  it("refuses what is not an image (415), checking the bytes, not only the header", async () => {
    const a = await userWithWorkspace();
    const before = await database(env.DB).select().from(photos).where(eq(photos.workspaceId, a.workspaceId)).all();
    expect((await upload(a.token, "plain text", "text/plain")).status).toBe(415);
    const lying = await upload(
      a.token,
      new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      "image/png",
    );
    expect(lying.status).toBe(415);
    expect(((await lying.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
    expect((await upload(a.token, new Uint8Array(), "image/jpeg")).status).toBe(415);
    expect((await upload(a.token, PNG, "image/svg+xml")).status).toBe(415);
    const after = await database(env.DB).select().from(photos).where(eq(photos.workspaceId, a.workspaceId)).all();
    expect(after).toEqual(before);
  });

  it("refuses a photo over 10 MB (413) and keeps nothing of it", async () => {
    const a = await userWithWorkspace();
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(JPEG);
    const ref = crypto.randomUUID();
    const id = await photoIdFor(a.workspaceId, a.userId, ref);
    const res = await upload(a.token, big, "image/jpeg", `?ref=${ref}`);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect(await database(env.DB).select().from(photos).where(eq(photos.id, id)).get()).toBeUndefined();
    expect(await env.PHOTOS.head(`${a.workspaceId}/${id}`)).toBeNull();
    // 10 MB exactly is fine.
    expect((await upload(a.token, big.subarray(0, 10 * 1024 * 1024), "image/jpeg")).status).toBe(201);
  });

  it("lets members upload and refuses viewers (403)", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    expect((await upload(member.token, PNG)).status).toBe(201);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await upload(viewer.token, PNG)).status).toBe(403);
  });
});
