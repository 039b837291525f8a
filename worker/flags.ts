import { inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { featureFlags } from "../db/schema";

/**
 * Feature flags the client reads from GET /api/me. Built-in defaults below; a row with
 * workspace_id '' overrides them globally, a row with a workspace id overrides for that
 * workspace. docs/flags.md lists them and shows how to set them.
 */
export const DEFAULT_FLAGS: Record<string, unknown> = {
  /** Google sign-in; only the global value counts (nobody's workspace is known before sign-in):
   * false makes api/oauth/google/url answer 404 oauth_disabled. Also needs the Google client. */
  googleSignIn: true,
  /** VIN "Decode" button on vehicle settings. */
  vinDecode: true,
  /** Speed and fuel charts on the vehicle overview. */
  telemetryCharts: true,
};

export async function flagsFor(db: Db, workspaceId: string | null): Promise<Record<string, unknown>> {
  const scopes = workspaceId ? ["", workspaceId] : [""];
  // in-list: two values at most, the global scope and this workspace
  const rows = await db.select().from(featureFlags).where(inArray(featureFlags.workspaceId, scopes)).all();
  const flags = { ...DEFAULT_FLAGS };
  for (const row of rows.filter((r) => r.workspaceId === "")) flags[row.key] = row.value;
  for (const row of rows.filter((r) => r.workspaceId !== "")) flags[row.key] = row.value;
  return flags;
}

export async function setFlag(db: Db, key: string, value: unknown, workspaceId = "") {
  await db
    .insert(featureFlags)
    .values({ key, workspaceId, value })
    .onConflictDoUpdate({ target: [featureFlags.key, featureFlags.workspaceId], set: { value } });
}
