import { createMiddleware } from "hono/factory";
import { liveReads } from "../../db/live-reads";
import type { AppEnv } from "../types";
import { settleWorkspace } from "../workspace-object";

/**
 * Opens each API request's settling scope (db/live-reads.ts): the request's first read of a table
 * the workspace object flushes waits once for that object to write what it holds, so every answer
 * includes every report acknowledged before the request. The workspace is the one the route acts
 * on (`access`, set by the route rules) or the session's; a request with neither (sign-in, a
 * device, a public link) names no object and reads D1 as it is.
 *
 * A flush that cannot be made (D1 failing, its back-off running) does not fail the read: the
 * answer is D1 as it is, a second stale at most, as pulls do meanwhile.
 */
export const settleLiveReads = createMiddleware<AppEnv>((c, next) => {
  let settled: Promise<void> | undefined;
  const settle = () => {
    const workspaceId = c.get("access")?.workspaceId ?? c.get("session")?.workspaceId;
    if (!workspaceId) return Promise.resolve();
    return (settled ??= settleWorkspace(c.env, workspaceId).catch((error: unknown) =>
      console.warn("reading D1 as it is: the workspace object did not flush:", error),
    ));
  };
  return liveReads.run({ settle }, next);
});
