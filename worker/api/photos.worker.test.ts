import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { photos } from "../../db/schema";
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

  it("takes the browser's id, so a record made offline can name the photo before it is uploaded; a retry is the same photo", async () => {
    const a = await userWithWorkspace();
    const id = crypto.randomUUID();
    expect((await upload(a.token, JPEG, "image/jpeg", `?id=${id}`)).status).toBe(201);
    const again = await upload(a.token, JPEG, "image/jpeg", `?id=${id}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id });
    expect((await call(`/api/photos/${id}`, { token: a.token })).headers.get("Content-Type")).toBe("image/jpeg");

    // Another workspace cannot take (or overwrite) it.
    const b = await userWithWorkspace();
    expect((await upload(b.token, PNG, "image/png", `?id=${id}`)).status).toBe(409);
    expect((await call(`/api/photos/${id}`, { token: a.token })).headers.get("Content-Type")).toBe("image/jpeg");
    expect((await upload(a.token, PNG, "image/png", "?id=nope")).status).toBe(400);
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
    const id = crypto.randomUUID();
    const res = await upload(a.token, big, "image/jpeg", `?id=${id}`);
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
