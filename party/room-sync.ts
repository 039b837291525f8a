import type { Db } from "../db/client";

/** Reads of what changed since a version, shared by the room's pulls until `invalidate` (a write committed). */
export interface SharedReads<Changes> {
  since(workspaceId: string, since: number): Promise<Changes>;
  invalidate(): void;
}

/**
 * Thrown by a socket pull whose answer must go over HTTP (e.g. it would carry what only the
 * session's role may see): expected, so the room answers `viaHttp` without logging an error.
 */
export class AnswerOverHttp extends Error {}

/**
 * What the room asks of the sync server and of sessions. Both live with the HTTP edge (worker/:
 * the pull's rules and D1 reads, the session rules), which hosts this object and calls into it;
 * the Worker's subclass (worker/workspace-room.ts) hands them in, so dependencies run one way
 * (docs/decisions/0026).
 */
export interface RoomSync<Changes> {
  /** Shared reads over `read` (worker/sync/changes.ts). */
  share(read: (workspaceId: string, since: number) => Promise<Changes>): SharedReads<Changes>;
  /** What changed in a workspace since a version, from D1. */
  readChanges(db: Db, workspaceId: string, since: number): Promise<Changes>;
  /** A pull for this caller, answered as the HTTP route would, from the room's shared reads. */
  answerPull(
    db: Db,
    caller: { userId: string; workspaceId: string },
    body: unknown,
    shared: (workspaceId: string, since: number) => Promise<Changes>,
  ): Promise<{ status: number; body: unknown }>;
  /** Which of these sessions (by token hash) are live members of the workspace. */
  liveSessionsIn(db: Db, workspaceId: string, sessionHashes: string[]): Promise<Set<string>>;
  /** These sessions were used (their idle clock restarts). */
  touchSessions(db: Db, sessionHashes: string[]): Promise<void>;
}
