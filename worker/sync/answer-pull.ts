import { pullRequestSchema, type PullAnswer } from "../../shared/sync/sync-protocol";
import type { Db } from "../../db/client";
import { ApiError, errorBody } from "../lib/errors";
import { parseInput } from "../lib/validate";
import type { SyncCaller } from "./client-group";
import type { ChangeSource } from "./changes";
import { pull } from "./pull";
import { pullSchemaSupported, unsupportedProtocol, versionNotSupported } from "./protocol-versions";

/**
 * The one pull handler of both transports, POST /api/sync/pull and the room's socket
 * (docs/decisions/0013): another protocol version is answered VersionNotSupported (status 200, what
 * Replicache expects) before the body is checked as version 1 (an old client's request has another
 * shape); a bad body is a 400 with its fields; another schema is VersionNotSupported "schema"; a
 * refusal (a client group of another session) is its 4xx with the API's JSON error.
 */
export async function answerPull(db: Db, caller: SyncCaller, raw: unknown, shared?: ChangeSource): Promise<PullAnswer> {
  if (unsupportedProtocol(raw, "pullVersion")) return { status: 200, body: versionNotSupported("pull") };
  try {
    const req = await parseInput(pullRequestSchema, raw);
    if (!pullSchemaSupported(req.schemaVersion)) return { status: 200, body: versionNotSupported("schema") };
    return { status: 200, body: await pull(db, caller, req, shared) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: errorBody(error) };
    throw error;
  }
}
