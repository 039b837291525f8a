import type { SessionInfo } from "./auth/session-info";
import type { Db } from "../db/client";
import type { Config, Env } from "./env";

/** Hono's type parameter for every router of the Worker. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Db;
    config: Config;
    session: SessionInfo;
    /** Set by worker/api/route-rules.ts for routes that act in a workspace: which, and the caller's role there. */
    access: { workspaceId: string; role: string };
  };
}
