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

/** A new browser's first pull (cookie null, a new client group): the whole synced state it would get. */
export function firstPull(token: string) {
  return call("/api/sync/pull", {
    method: "POST",
    token,
    json: {
      pullVersion: 1,
      clientGroupID: crypto.randomUUID(),
      cookie: null,
      profileID: "p",
      schemaVersion: SCHEMA_VERSION,
    },
  });
}
