import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { places } from "../../db/schema";
import { bumpVersion, versionOf } from "../../db/workspace-version";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { api } from "./index";
import { ruleKey } from "./route-rules";

/**
 * Issue 34: a fuzzing pass over every API route, read from the Hono app itself (so a route added
 * later, by any branch, is covered without touching this file): malformed and wrongly typed
 * bodies, oversize fields, odd path values and other tenants' ids, as an owner and signed out (the
 * roles themselves: worker/api/route-rules.worker.test.ts). No answer
 * may be a 5xx, and every refusal must be the API's JSON error `{ error: { code, message } }`.
 */
const routes = [
  ...new Map(api.routes.filter((r) => r.method !== "ALL").map((r) => [ruleKey(r.method, r.path), r])).values(),
];

const huge = "x".repeat(300_000);
const long = "y".repeat(5_000);
/** Field names the API's bodies use, each given a value of the wrong kind. */
const fields = [
  "email",
  "password",
  "name",
  "role",
  "token",
  "code",
  "workspaceId",
  "count",
  "timeZone",
  "frequency",
  "type",
  "notify",
  "geometry",
  "ids",
  "all",
  "confirm",
  "rule",
  "id",
  "mutations",
  "clientGroupID",
  "pushVersion",
  "pullVersion",
  "cookie",
  "device_id",
  "location",
  "currentPassword",
  "newPassword",
  "recoveryCode",
  "challengeId",
  "state",
  "codeVerifier",
  "redirectUri",
];
const wrongTypes: unknown[] = [123, ["a"], { nested: { deeper: [1, 2, 3] } }, null, ""];

const bodies: { label: string; body: BodyInit; type: string }[] = [
  { label: "malformed JSON", body: "{not json", type: "application/json" },
  { label: "JSON array", body: "[1,2,3]", type: "application/json" },
  { label: "JSON string", body: '"hello"', type: "application/json" },
  { label: "JSON null", body: "null", type: "application/json" },
  { label: "deep nesting", body: `${"[".repeat(5000)}${"]".repeat(5000)}`, type: "application/json" },
  { label: "form body", body: "email=a&password=b", type: "application/x-www-form-urlencoded" },
  { label: "oversize body", body: JSON.stringify({ email: huge }), type: "application/json" },
  ...wrongTypes.map((value, i) => ({
    label: `wrong types #${i}`,
    body: JSON.stringify(Object.fromEntries(fields.map((f) => [f, value]))),
    type: "application/json",
  })),
  {
    label: "oversize fields",
    body: JSON.stringify(Object.fromEntries(fields.map((f) => [f, long]))),
    type: "application/json",
  },
];

const queries = [
  "",
  `?from=${long}&to=%00&since=-1&limit=1e309&status=%F0%9F%92%A5&format=xml&vehicleId=${long}`,
  "?since=+275760-09-13T00:00:00Z&from=NaN&to=Infinity",
  "?to=a%40b&id=1&id=2&id=3",
];

/** Values for a path's `:params`: another tenant's ids, unknown ids, odd strings. */
function pathValues(other: Other, pattern: string): Record<string, string>[] {
  // `:id` is a workspace under /workspaces, a place or an alert rule elsewhere
  const id = pattern.startsWith("/places")
    ? other.placeId
    : pattern.startsWith("/alert-rules")
      ? other.ruleId
      : pattern.startsWith("/shares")
        ? other.shareId
        : other.workspaceId;
  const theirs = {
    id,
    vehicleId: other.vehicleId,
    userId: other.userId,
    inviteId: other.inviteId,
    tokenId: other.tokenId,
    token: "t".repeat(43),
    provider: "google",
    report: "summary",
  };
  const each = (value: string) => Object.fromEntries(Object.keys(theirs).map((k) => [k, value]));
  return [theirs, each(crypto.randomUUID()), each(long), each("%00..%2F%E0%A4%A'%20OR%201=1--")];
}

interface Other {
  workspaceId: string;
  userId: string;
  vehicleId: string;
  inviteId: string;
  placeId: string;
  ruleId: string;
  shareId: string;
  tokenId: string;
}

async function otherTenant(): Promise<Other> {
  const b = await userWithWorkspace();
  const vehicleId = await insertVehicle(b.workspaceId);
  const invite = await call(`/api/workspaces/${b.workspaceId}/invites`, {
    method: "POST",
    token: b.token,
    json: { email: `fuzz-${crypto.randomUUID().slice(0, 6)}@example.com`, role: "member" },
  });
  const rule = await call("/api/alert-rules", { method: "POST", token: b.token, json: { type: "tow" } });
  const share = await call(`/api/vehicles/${vehicleId}/shares`, {
    method: "POST",
    token: b.token,
    json: { expiresInMinutes: 60 },
  });
  const apiToken = await call(`/api/workspaces/${b.workspaceId}/api-tokens`, {
    method: "POST",
    token: b.token,
    json: { name: "fuzz", scope: "write" },
  });
  const placeId = crypto.randomUUID();
  const db = database(env.DB);
  await db.batch([
    bumpVersion(db, b.workspaceId),
    db.insert(places).values({
      id: placeId,
      workspaceId: b.workspaceId,
      name: "Depot",
      geometry: { type: "Circle", center: [-87.6, 41.9], radius: 100 },
      version: versionOf(b.workspaceId),
    }),
  ]);
  return {
    workspaceId: b.workspaceId,
    userId: b.userId,
    vehicleId,
    inviteId: ((await invite.json()) as { id: string }).id,
    placeId,
    ruleId: ((await rule.json()) as { id: string }).id,
    shareId: ((await share.json()) as { id: string }).id,
    tokenId: ((await apiToken.json()) as { id: string }).id,
  };
}

/**
 * Routes of credentials (issue 39: share links, API tokens, the address confirmation) are also
 * fuzzed with an API token of the caller's workspace as the bearer.
 */
const credentialRoute = (path: string) => /shares?\b|api-tokens|\/email\//.test(path);

async function writeTokenOf(me: { token: string; workspaceId: string }) {
  const res = await call(`/api/workspaces/${me.workspaceId}/api-tokens`, {
    method: "POST",
    token: me.token,
    json: { name: "fuzzing", scope: "write" },
  });
  return ((await res.json()) as { token: string }).token;
}

/** What is wrong with an answer, or null: a 5xx, or a refusal that is not the JSON error. */
async function problemOf(res: Response): Promise<string | null> {
  if (res.status >= 500) return `answered ${res.status}: ${(await res.text()).slice(0, 200)}`;
  if (res.status < 400) {
    await res.body?.cancel();
    return null;
  }
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string" && typeof body.error?.message === "string") return null;
  } catch {
    // falls through
  }
  return `refused ${res.status} without the JSON error: ${text.slice(0, 200)}`;
}

describe("fuzzing every API route from the app's route table", () => {
  it("has the routes to fuzz", () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it.each(routes.map((r) => [ruleKey(r.method, r.path), r] as const))(
    "%s: no 5xx, every refusal a JSON error",
    async (_key, route) => {
      const other = await otherTenant();
      const problems: string[] = [];
      for (const params of pathValues(other, route.path)) {
        // a fresh owner each time: a fuzzed sign-out or switch must not hide the rest behind a 401
        const me = await userWithWorkspace();
        const path = `/api${route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "x")}`;
        const tries =
          route.method === "GET"
            ? queries.map((query) => ({ query, variant: null }))
            : bodies.map((variant) => ({ query: "", variant }));
        const callers = credentialRoute(route.path)
          ? [me.token, undefined, await writeTokenOf(me)]
          : [me.token, undefined];
        for (const token of callers) {
          for (const { query, variant } of tries) {
            const headers: Record<string, string> = variant ? { "Content-Type": variant.type } : {};
            const res = await call(`${path}${query}`, { method: route.method, token, headers, body: variant?.body });
            const problem = await problemOf(res);
            if (problem)
              problems.push(
                `${route.method} ${path.slice(0, 80)}${query.slice(0, 40)} [${variant?.label ?? "no body"}] ${token ? (token.startsWith("fo_") ? "api token" : "signed in") : "anonymous"}: ${problem}`,
              );
          }
        }
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
