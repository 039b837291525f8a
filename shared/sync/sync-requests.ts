import { PROTOCOL_VERSION, SCHEMA_VERSION, type Mutation } from "./sync-protocol";
import type { z } from "zod";
import type { pullRequestSchema, pushRequestSchema } from "./sync-protocol";

/**
 * Replicache push and pull request bodies for callers that are not Replicache: the demo seeder,
 * the simulator, benchmarks and tests. One place knows the protocol and schema versions.
 */
export function pullRequest(
  opts: { clientGroupID?: string; cookie?: z.input<typeof pullRequestSchema>["cookie"]; profileID?: string } = {},
) {
  return {
    pullVersion: PROTOCOL_VERSION,
    schemaVersion: SCHEMA_VERSION,
    profileID: opts.profileID ?? "script",
    clientGroupID: opts.clientGroupID ?? crypto.randomUUID(),
    cookie: opts.cookie ?? null,
  } satisfies z.input<typeof pullRequestSchema>;
}

/** Mutations numbered from 1 for one new client (ids 1, 2, …), unless they say otherwise. */
export function pushRequest(
  mutations: (Pick<Mutation, "name" | "args"> & Partial<Pick<Mutation, "id" | "clientID" | "timestamp">>)[],
  opts: { clientGroupID?: string; clientID?: string; profileID?: string } = {},
) {
  const clientID = opts.clientID ?? crypto.randomUUID();
  return {
    pushVersion: PROTOCOL_VERSION,
    schemaVersion: SCHEMA_VERSION,
    profileID: opts.profileID ?? "script",
    clientGroupID: opts.clientGroupID ?? crypto.randomUUID(),
    mutations: mutations.map((m, i) => ({ clientID, id: i + 1, timestamp: Date.now(), ...m })),
  } satisfies z.input<typeof pushRequestSchema>;
}
