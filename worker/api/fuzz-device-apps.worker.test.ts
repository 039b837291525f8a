import { describe, expect, it } from "vitest";
import { call, userWithWorkspace } from "../test/factories";
import {
  overlandAt,
  owntracksAndroidLocation,
  owntracksAt,
  owntracksOtherMessages,
  traccarClientAt,
} from "../fleet/fixtures/device-apps";

/**
 * Issue 39's fuzzing pass, extended to the device apps (issue 44): worker/api/fuzz.worker.test.ts
 * sends every route odd bodies, but with no known device id none of them reaches a parser's
 * numbers or the fold. Here each recorded payload of each app, from a real beacon, has each of its
 * fields replaced in turn by hostile JSON (-1e400, years no Date holds, 1970, wrong types, 5,000
 * characters...), sent as the app sends it. No answer may be a 5xx, and every refusal must be the
 * API's JSON error.
 */
const HOSTILE = [
  "-1e400",
  "1e400",
  "-9e15",
  "9e15",
  "-1",
  "0",
  "1e308",
  '"NaN"',
  '"+275760-09-13T00:00:00.000Z"',
  '"-271821-04-20T00:00:00.000Z"',
  '"1970-01-01T00:00:00Z"',
  "null",
  "[]",
  '{"a":[1]}',
  "true",
  JSON.stringify("z".repeat(5_000)),
];
const MARK = "\u0000fuzz\u0000";

/** The paths of every leaf value of `value` (array items and object fields alike). */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [path];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.length ? entries.flatMap(([k, v]) => leaves(v, [...path, k])) : [path];
}

/** `body` as JSON text with the leaf at `path` replaced by the raw JSON `token`. */
function withToken(body: unknown, path: (string | number)[], token: string): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  if (path.length) at[path.at(-1)!] = MARK;
  return (path.length ? JSON.stringify(copy) : JSON.stringify(MARK)).replace(JSON.stringify(MARK), token);
}

async function problemOf(res: Response): Promise<string | null> {
  if (res.status >= 500) return `answered ${res.status}: ${(await res.text()).slice(0, 200)}`;
  const text = await res.text();
  if (res.status < 400) return null;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string" && typeof body.error?.message === "string") return null;
  } catch {
    // falls through
  }
  return `refused ${res.status} without the JSON error: ${text.slice(0, 200)}`;
}

interface AppCase {
  app: string;
  payload: (deviceId: string, now: number) => unknown;
  send: (deviceId: string, body: string) => Promise<Response>;
}

const ip = () => `10.46.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;
const post = (path: string, headers: Record<string, string>, body: string) =>
  call(path, {
    method: "POST",
    headers: { "CF-Connecting-IP": ip(), "Content-Type": "application/json", ...headers },
    body,
  });

const apps: AppCase[] = [
  {
    app: "Traccar Client at /api/ingest/osmand",
    payload: (id, now) => traccarClientAt(id, now - 60_000),
    send: (_id, body) => post("/api/ingest/osmand", {}, body),
  },
  {
    app: "Traccar Client at /",
    payload: (id, now) => traccarClientAt(id, now - 60_000),
    send: (_id, body) => post("/", {}, body),
  },
  {
    app: "OwnTracks location",
    payload: (_id, now) => owntracksAt(owntracksAndroidLocation, now - 60_000),
    send: (id, body) => post("/api/ingest/owntracks", { "X-Limit-D": id }, body),
  },
  {
    app: "OwnTracks queue (array)",
    payload: (_id, now) => [owntracksAt(owntracksAndroidLocation, now - 60_000), ...owntracksOtherMessages],
    send: (id, body) => post("/api/ingest/owntracks", { "X-Limit-D": id }, body),
  },
  {
    app: "Overland batch",
    payload: (id, now) => overlandAt(id, [now - 60_000, now - 50_000]),
    send: (id, body) => post("/api/ingest/overland", { Authorization: `Bearer ${id}` }, body),
  },
];

/** OsmAnd's query: each parameter of a genuine report given each hostile value, as text. */
const osmandParams = (id: string, now: number): Record<string, string> => ({
  id,
  lat: "41.88",
  lon: "-87.62",
  timestamp: String(Math.floor((now - 60_000) / 1000)),
  speed: "20",
  bearing: "90",
  altitude: "180",
  accuracy: "5",
  batt: "80",
  ignition: "true",
  fuel: "50",
  odometer: "1000",
});

async function beacons(count: number) {
  const a = await userWithWorkspace();
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }[]).map((b) => b.id);
}

describe("fuzzing the device apps' ingestion with a known device", () => {
  it.each(apps.map((a) => [a.app, a] as const))(
    "%s: no 5xx for any field given any hostile value",
    async (_name, { payload, send }) => {
      // Several beacons share the requests so no device's throttle hides the parsers behind 429s.
      const ids = await beacons(20);
      const problems: string[] = [];
      let n = 0;
      const now = Date.now();
      for (const path of leaves(payload(ids[0]!, now))) {
        for (const token of HOSTILE) {
          const id = ids[n++ % ids.length]!;
          const body = withToken(payload(id, now), path, token);
          const problem = await problemOf(await send(id, body));
          if (problem) problems.push(`${path.join(".")} = ${token.slice(0, 30)}: ${problem}`);
        }
      }
      expect(n).toBeGreaterThan(100);
      expect(problems).toEqual([]);
    },
    180_000,
  );

  it("OsmAnd's query and form: no 5xx for any parameter given any hostile value", async () => {
    const ids = await beacons(20);
    const problems: string[] = [];
    let n = 0;
    const now = Date.now();
    for (const name of Object.keys(osmandParams(ids[0]!, now))) {
      for (const token of HOSTILE) {
        const id = ids[n++ % ids.length]!;
        const params = new URLSearchParams({ ...osmandParams(id, now), [name]: token.replace(/^"|"$/g, "") });
        const get = await call(`/api/ingest/osmand?${params}`, { headers: { "CF-Connecting-IP": ip() } });
        const form = await call("/api/ingest/osmand", {
          method: "POST",
          headers: { "CF-Connecting-IP": ip(), "Content-Type": "application/x-www-form-urlencoded" },
          body: params.toString(),
        });
        for (const [how, res] of [
          ["GET", get],
          ["form", form],
        ] as const) {
          const problem = await problemOf(res);
          if (problem) problems.push(`${how} ${name}=${token.slice(0, 30)}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("bodies that are not the app's shape at all: no 5xx", async () => {
    const [id] = await beacons(1);
    const problems: string[] = [];
    const raw = ["", " ", "{not json", "[]", "[[]]", "null", "-1e400", '"x"', `${"[".repeat(5000)}${"]".repeat(5000)}`];
    for (const body of raw) {
      for (const send of apps.map((a) => a.send)) {
        const problem = await problemOf(await send(id!, body));
        if (problem) problems.push(`${JSON.stringify(body.slice(0, 20))}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
