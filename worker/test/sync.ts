import { expect } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { call } from "./factories";

export type Refused = { clientID: string; id: number; name: string; message: string }[];

/** One push of a new client group with these mutations, as the browser's sync sends it; answers what was refused. */
export async function pushMutations(token: string, mutations: { name: string; args: unknown }[]) {
  const clientID = crypto.randomUUID();
  const res = await call("/api/sync/push", {
    method: "POST",
    token,
    json: {
      pushVersion: 1,
      clientGroupID: crypto.randomUUID(),
      profileID: "p",
      schemaVersion: SCHEMA_VERSION,
      mutations: mutations.map((m, i) => ({ clientID, id: i + 1, ...m, timestamp: 1 })),
    },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { refused?: Refused };
}

/** A pull's request as Replicache sends it: a browser's first (cookie null) or its next, in a new client group unless one is named. */
function pullRequest(token: string, cookie: unknown, clientGroupID: string) {
  return call("/api/sync/pull", {
    method: "POST",
    token,
    json: { pullVersion: 1, clientGroupID, cookie, profileID: "p", schemaVersion: SCHEMA_VERSION },
  });
}

/** A new browser's first pull (cookie null, a new client group): the whole synced state it would get. */
export function firstPull(token: string) {
  return pullRequest(token, null, crypto.randomUUID());
}

/** A pull's patch entries as the tests read them. */
export type SyncPatch = { op: string; key: string; value?: unknown }[];

/** A browser's pull with `cookie` (null: its first), answered 200: its next cookie and its patch. */
export async function pullPatch<P = SyncPatch>(
  token: string,
  cookie: unknown = null,
  clientGroupID = crypto.randomUUID(),
) {
  const res = await pullRequest(token, cookie, clientGroupID);
  if (res.status !== 200) throw new Error(`pull answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { cookie: unknown; patch: P };
}
