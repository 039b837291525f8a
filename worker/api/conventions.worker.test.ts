import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const worker = (exports as unknown as { default: Fetcher }).default;
const call = (path: string, init?: RequestInit) => worker.fetch(`http://localhost${path}`, init);

describe("API conventions", () => {
  it("answers the no-op route with JSON and no-store", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toEqual({ ok: true });
  });

  it("answers unknown API routes with a JSON 404", async () => {
    const res = await call("/api/nope");
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).toContain("/api/nope");
  });

  it("refuses bodies over the size limit with 413 JSON", async () => {
    const res = await call("/api/health", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(300 * 1024) },
      body: "x".repeat(300 * 1024),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
  });
});
