import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/maintenance/inspections";
import { JOB_CSV_HEADER } from "../../shared/jobs/jobs";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { database } from "../test/db";
import { places } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { api } from "./index";
import { routeKey } from "./route-declaration/declared-routes";

/**
 * Issue 34: a fuzzing pass over every API route, read from the Hono app itself (so a route added
 * later, by any branch, is covered without touching this file): malformed and wrongly typed
 * bodies, oversize fields, odd path values and other tenants' ids, as an owner and signed out (the
 * roles themselves: worker/api/route-rules.worker.test.ts). No answer
 * may be a 5xx, and every refusal must be the API's JSON error `{ error: { code, message } }`.
 *
 * Issue 39 extends it to the routes added since (photos, inspections, service, issues): their
 * field names with wrong kinds, bodies of the right shape with hostile values (110 photo ids,
 * another tenant's vehicle, form, schedule and issue, far dates, huge numbers), image bodies for
 * photos, and another tenant's ids of those kinds in `:id`.
 */
const routes = [
  ...new Map(api.routes.filter((r) => r.method !== "ALL").map((r) => [routeKey(r.method, r.path), r])).values(),
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
  // photos, inspections, service and issues (issue 39)
  "vehicleId",
  "formId",
  "results",
  "signedName",
  "submittedAt",
  "photoIds",
  "odometerMiles",
  "scheduleIds",
  "resolvesIssueIds",
  "date",
  "everyMiles",
  "everyDays",
  "everyEngineHours",
  "lastDoneAt",
  "lastDoneOdometerMiles",
  "costCents",
  "title",
  "priority",
  "status",
  "assigneeUserId",
  "dueDate",
  "items",
  "text",
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
    label: "CSV of hostile job lines",
    body: `${JOB_CSV_HEADER}\n"=cmd|' /C calc'!A0",1e308,-1e308,${long},9999-12-31,25:99,00:00,${long}\n,,,,,,,\n`,
    type: "text/csv",
  },
  {
    label: "oversize fields",
    body: JSON.stringify(Object.fromEntries(fields.map((f) => [f, long]))),
    type: "application/json",
  },
];

const uuids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
/** Bodies of the maintenance routes' shapes with hostile values: another tenant's ids, far dates, huge lists. */
function shapedBodies(other: Other): { label: string; body: BodyInit; type: string }[] {
  const results = Array.from({ length: 11 }, (_, i) => ({ itemId: `item-${i}`, pass: false, photoIds: uuids(10) }));
  const shapes: Record<string, unknown> = {
    "inspection of 110 photos, another tenant's form and vehicle": {
      formId: other.formId,
      vehicleId: other.vehicleId,
      results,
      signedName: long,
      submittedAt: "+275760-09-13T00:00:00Z",
    },
    "service entry naming 100 schedules, 60 issues and 11 photos": {
      vehicleId: other.vehicleId,
      date: "9999-99-99",
      odometerMiles: 1e308,
      scheduleIds: uuids(100),
      resolvesIssueIds: [other.issueId, ...uuids(59)],
      photoIds: [other.photoId, ...uuids(10)],
      costCents: -1,
    },
    "schedule with huge intervals": {
      vehicleId: other.vehicleId,
      name: "x",
      everyMiles: 1e308,
      everyDays: 1e12,
      everyEngineHours: -0,
      lastDoneAt: "0000-01-01",
      lastDoneOdometerMiles: Number.MAX_SAFE_INTEGER,
    },
    "work order and line naming another tenant's vehicle, issues, part and vendor, with hostile figures": {
      vehicleId: other.vehicleId,
      issueIds: [other.issueId, ...uuids(60)],
      scheduleIds: [other.scheduleId],
      tasks: [long, ""],
      vendorId: other.vendorId,
      assigneeUserId: other.userId,
      kind: "part",
      quantity: -1e308,
      unitCostCents: 1e308,
      partId: other.partId,
      taxCents: -1,
      allowNegativeStock: "yes",
      completedAt: "+275760-09-13T00:00:00Z",
      quantityOnHand: Number.NaN,
      reorderPoint: -5,
    },
    "issue naming another tenant's photo and assignee": {
      vehicleId: other.vehicleId,
      title: "t",
      priority: "high",
      status: "resolved",
      assigneeUserId: other.userId,
      dueDate: "2026-02-30",
      photoIds: [other.photoId],
      text: long,
    },
  };
  return Object.entries(shapes).map(([label, value]) => ({
    label,
    body: JSON.stringify(value),
    type: "application/json",
  }));
}

/** The same shapes about the caller's own vehicle and form: every check passes until the long lists (issue 39, finding 5). */
function ownShapedBodies(mine: { workspaceId: string; vehicleId: string }) {
  const results = DEFAULT_PRE_TRIP_ITEMS.map((item) => ({ itemId: item.id, pass: false, photoIds: uuids(10) }));
  const shapes: Record<string, unknown> = {
    "own inspection of 110 photos": {
      formId: defaultFormId(mine.workspaceId),
      vehicleId: mine.vehicleId,
      results,
      signedName: "Fuzz",
    },
    "own service entry naming 100 schedules": {
      vehicleId: mine.vehicleId,
      date: "2026-01-01",
      scheduleIds: uuids(100),
    },
    "own service entry resolving 50 issues": { vehicleId: mine.vehicleId, resolvesIssueIds: uuids(50) },
    // issue 55: the own vehicle's work order naming 50 unknown issues, lines of extreme figures, a completion far ahead
    "own work order with extreme lines": {
      vehicleId: mine.vehicleId,
      issueIds: uuids(50),
      tasks: Array.from({ length: 50 }, () => "t"),
      kind: "labor",
      quantity: 100_000,
      unitCostCents: 100_000_000_00,
      completedAt: "2100-01-01T00:00:00Z",
      name: "p",
      quantityOnHand: 10_000_000,
    },
    "own issue with 10 photos": { vehicleId: mine.vehicleId, title: "t", priority: "low", photoIds: uuids(10) },
    // issue 51: jobs on the own vehicle's day at the calendar's ends, costs dated far away, device times out of bounds
    "own job in 2100 on the own vehicle": {
      title: "t",
      date: "2100-12-31",
      vehicleId: mine.vehicleId,
      location: { latitude: 90, longitude: -180 },
      sequence: 100_000,
    },
    "own expense dated 9999-12-31, renewal renewed to 1999": {
      vehicleId: mine.vehicleId,
      date: "9999-12-31",
      kind: "repair",
      costCents: 1,
      dueDate: "1999-01-01",
    },
    "sync push of device times out of bounds": {
      pushVersion: 1,
      clientGroupID: crypto.randomUUID(),
      profileID: "p",
      schemaVersion: SCHEMA_VERSION,
      mutations: [
        { name: "markJobArrived", args: { id: crypto.randomUUID(), at: 1 } },
        { name: "completeJob", args: { id: crypto.randomUUID(), at: Number.MAX_SAFE_INTEGER } },
        {
          name: "createJob",
          args: {
            id: crypto.randomUUID(),
            title: "t",
            date: "2000-01-01",
            vehicleId: mine.vehicleId,
            location: { latitude: 0, longitude: 0 },
          },
        },
      ].map((m, i) => ({ clientID: crypto.randomUUID(), id: i + 1, ...m, timestamp: 1 })),
    },
  };
  return Object.entries(shapes).map(([label, value]) => ({
    label,
    body: JSON.stringify(value),
    type: "application/json",
  }));
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
/** What a photo upload may be sent: lying headers, bytes that are no image, too many bytes. */
const imageBodies: { label: string; body: BodyInit; type: string }[] = [
  { label: "PNG", body: PNG, type: "image/png" },
  { label: "HTML labelled PNG", body: "<html><script>alert(1)</script>", type: "image/png" },
  { label: "SVG", body: "<svg xmlns='http://www.w3.org/2000/svg'/>", type: "image/svg+xml" },
  { label: "empty JPEG", body: new Uint8Array(), type: "image/jpeg" },
  { label: "PNG with parameters", body: PNG, type: "image/png; charset=utf-8; boundary=x" },
  { label: "11 MB", body: new Uint8Array(11 * 1024 * 1024), type: "image/webp" },
];
const photoQueries = ["", `?ref=${long}`, `?ref=${crypto.randomUUID()}&id=${crypto.randomUUID()}`, "?ref=&ref=x"];

const queries = [
  "",
  `?from=${long}&to=%00&since=-1&limit=1e309&status=%F0%9F%92%A5&format=xml&vehicleId=${long}`,
  "?since=+275760-09-13T00:00:00Z&from=NaN&to=Infinity",
  "?to=a%40b&id=1&id=2&id=3",
];

/** Values for a path's `:params`: another tenant's ids, unknown ids, odd strings. */
function pathValues(other: Other, pattern: string): Record<string, string>[] {
  // `:id` is a workspace under /workspaces, a place, an alert rule, an issue, ... elsewhere
  const idOf: [string, string][] = [
    ["/places", other.placeId],
    ["/alert-rules", other.ruleId],
    ["/issues", other.issueId],
    ["/photos", other.photoId],
    ["/inspection-forms", other.formId],
    ["/service-schedules", other.scheduleId],
    ["/service-entries", other.entryId],
    ["/shares", other.shareId],
    ["/jobs", other.jobId],
    ["/work-orders", other.workOrderId],
    ["/parts", other.partId],
    ["/vendors", other.vendorId],
  ];
  const id = idOf.find(([prefix]) => pattern.startsWith(prefix))?.[1] ?? other.workspaceId;
  const theirs = {
    id,
    vehicleId: other.vehicleId,
    userId: other.userId,
    inviteId: other.inviteId,
    tokenId: other.tokenId,
    shareId: other.jobShareId,
    lineId: other.lineId,
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
  issueId: string;
  photoId: string;
  formId: string;
  scheduleId: string;
  entryId: string;
  jobId: string;
  jobShareId: string;
  workOrderId: string;
  lineId: string;
  partId: string;
  vendorId: string;
}

/** The other tenant's maintenance records, made through the API as its owner would. */
async function otherMaintenance(token: string, vehicleId: string) {
  const post = async (path: string, json: unknown) =>
    ((await (await call(path, { method: "POST", token, json })).json()) as { id: string }).id;
  const photo = await call("/api/photos", {
    method: "POST",
    token,
    body: PNG,
    headers: { "Content-Type": "image/png" },
  });
  const forms = (await (await call("/api/inspection-forms", { token })).json()) as { forms: { id: string }[] };
  return {
    issueId: await post("/api/issues", { vehicleId, title: "Dent", priority: "low" }),
    photoId: ((await photo.json()) as { id: string }).id,
    formId: forms.forms[0]!.id,
    scheduleId: await post("/api/service-schedules", { vehicleId, name: "Oil", everyDays: 30 }),
    entryId: await post("/api/service-entries", { vehicleId, date: new Date().toISOString().slice(0, 10) }),
  };
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
    ...(await otherMaintenance(b.token, vehicleId)),
    ...(await otherCustomerLink(b.token, b.workspaceId)),
    ...(await otherShop(b.token, vehicleId)),
  };
}

/** The other tenant's work order with a line, a part and a vendor (issue 55). */
async function otherShop(token: string, vehicleId: string) {
  const post = async (path: string, json: unknown) =>
    ((await (await call(path, { method: "POST", token, json })).json()) as { id: string }).id;
  const partId = await post("/api/parts", { name: "Pads", unitCostCents: 100, quantityOnHand: 1 });
  const vendorId = await post("/api/vendors", { name: "Shop" });
  const workOrderId = await post("/api/work-orders", { vehicleId });
  const lineId = await post(`/api/work-orders/${workOrderId}/lines`, {
    kind: "part",
    quantity: 1,
    unitCostCents: 1,
    partId,
  });
  return { partId, vendorId, workOrderId, lineId };
}

/** The other tenant's job and its customer link (issue 51: ended one by one). */
async function otherCustomerLink(token: string, workspaceId: string) {
  const created = await call("/api/jobs", {
    method: "POST",
    token,
    json: {
      title: "Drop-off",
      date: new Date().toISOString().slice(0, 10),
      location: { latitude: 41.9, longitude: -87.6 },
    },
  });
  const jobId = ((await created.json()) as { id: string }).id;
  await call(`/api/jobs/${jobId}/shares`, { method: "POST", token, json: {} });
  const { customerLinks } = (await (await call(`/api/workspaces/${workspaceId}/shares`, { token })).json()) as {
    customerLinks: { id: string }[];
  };
  return { jobId, jobShareId: customerLinks[0]!.id };
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

const MAINTENANCE = /^\/(inspections|service-|issues)/;

async function triesFor(route: { method: string; path: string }, other: Other, workspaceId: string) {
  if (route.method === "GET") return queries.map((query) => ({ query, variant: null }));
  const own = MAINTENANCE.test(route.path)
    ? ownShapedBodies({ workspaceId, vehicleId: await insertVehicle(workspaceId) })
    : [];
  const sent = [...bodies, ...shapedBodies(other), ...own].map((variant) => ({ query: "", variant }));
  if (route.path !== "/photos") return sent;
  return [...sent, ...photoQueries.flatMap((query) => imageBodies.map((variant) => ({ query, variant })))];
}

describe("fuzzing every API route from the app's route table", () => {
  it("has the routes to fuzz", () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it.each(routes.map((r) => [routeKey(r.method, r.path), r] as const))(
    "%s: no 5xx, every refusal a JSON error",
    async (_key, route) => {
      const other = await otherTenant();
      const problems: string[] = [];
      for (const params of pathValues(other, route.path)) {
        // a fresh owner each time: a fuzzed sign-out or switch must not hide the rest behind a 401
        const me = await userWithWorkspace();
        const path = `/api${route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "x")}`;
        const tries = await triesFor(route, other, me.workspaceId);
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
