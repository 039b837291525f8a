import { describe, expect, it } from "vitest";
import { call } from "../test/factories";
import { api } from "./index";

/** GET /api/openapi.json describes every route of the Hono app, from the routes' own schemas. */
interface Document {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: {
          content: Record<string, { schema: { properties?: Record<string, unknown>; format?: string } }>;
        };
        security?: unknown[];
        description?: string;
        responses: Record<string, unknown>;
      }
    >
  >;
}

async function document() {
  const res = await call("/api/openapi.json");
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

/** Every handler route of the app under /api, as Hono registered it (`METHOD /api/path/{param}`). */
function appRoutes() {
  const keys = api.routes
    .filter((r) => r.method !== "ALL")
    // Development-only routes (404 outside local development) are internal: not the public API.
    .filter((r) => !r.path.startsWith("/dev/"))
    .map((r) => `${r.method} /api${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`);
  return [...new Set(keys)];
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and has every route of the app", async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    const missing = appRoutes().filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
    expect(appRoutes().length).toBeGreaterThan(60);
  });

  it("names each route's rate limits from its declaration, and no 429 where none is declared", async () => {
    const doc = await document();
    const describe429 = (path: string, method: string) =>
      (doc.paths[path]![method]!.responses["429"] as { description?: string } | undefined)?.description;
    expect(describe429("/api/signup", "post")).toBe(
      "rate_limited: at most 50 in an hour per network; at most 5 in an hour per e-mail and network. Retry-After says when to try again",
    );
    expect(describe429("/api/photos", "post")).toContain("at most 30 in a minute per member of the workspace");
    expect(describe429("/api/beacons/order", "post")).toContain("at most 50 in a day per user");
    expect(describe429("/api/places", "get")).toBeUndefined();
  });

  it("describes bodies from the routes' zod schemas, and who may call what", async () => {
    const doc = await document();
    const createToken = doc.paths["/api/workspaces/{id}/api-tokens"]!.post!;
    expect(createToken.requestBody!.content["application/json"]!.schema.properties).toHaveProperty("scope");
    const share = doc.paths["/api/vehicles/{vehicleId}/shares"]!.post!;
    expect(share.requestBody!.content["application/json"]!.schema.properties).toHaveProperty("expiresInMinutes");
    expect(doc.paths["/api/share/{token}"]!.get!.security).toEqual([]);
    expect(doc.paths["/api/places"]!.get!.security).toEqual([{ bearer: [] }]);
  });

  it("describes photo uploads as image bytes, and the maintenance routes' bodies and roles", async () => {
    const doc = await document();
    const upload = doc.paths["/api/photos"]!.post!;
    expect(Object.keys(upload.requestBody!.content).sort()).toEqual(["image/jpeg", "image/png", "image/webp"]);
    expect(upload.requestBody!.content["image/png"]!.schema.format).toBe("binary");
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(["201", "413", "415"]));
    const entry = doc.paths["/api/service-entries"]!.post!;
    expect(entry.requestBody!.content["application/json"]!.schema.properties).toHaveProperty("resolvesIssueIds");
    expect(doc.paths["/api/service-schedules"]!.post!.description).toMatch(/^Owners and admins/);
    expect(doc.paths["/api/beacons/device-ids/replace"]!.post!.description).toMatch(/^Owners, with a session/);
  });
});
