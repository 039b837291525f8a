import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import {
  apiTokens,
  invites,
  jobShares,
  pushSubscriptions,
  reportSubscriptions,
  sessions,
  vehicleShares,
} from "../../db/schema";
import { announceWrites } from "../workspace-object";
import type { Env } from "../env";

/**
 * One rule for every credential a person holds (issue 39, docs/decisions/0041): each names its
 * creator, and each ends when that person's membership of its workspace ends (removed or left)
 * or their account is deleted. `workspaceId` null means every workspace (account deletion).
 * `guard` is SQL that must still hold when the batch runs (removal: "they are no longer a
 * member"), so a refused removal ends nothing.
 *
 * A new kind of credential adds its statement to `enders` below; that is the whole hook (customer
 * links to jobs, issue 51, are the latest). worker/team/credentials.worker.test.ts fails when a
 * table of the schema that holds a token or names a creator is neither here nor set aside there.
 */
export interface CredentialHolder {
  userId: string;
  workspaceId: string | null;
  guard?: SQL;
}

const inWorkspace = (column: SQL | Parameters<typeof eq>[0], workspaceId: string | null) =>
  workspaceId === null ? undefined : eq(column, workspaceId);

/**
 * The statements, in order: sessions, API tokens, share links (returning their hashes), invites,
 * report e-mails, push subscriptions, customer links.
 */
function enders(db: Db, holder: CredentialHolder, now: number) {
  const { userId, workspaceId, guard } = holder;
  return [
    // A session naming the workspace stops naming it (the person keeps their sign-in elsewhere).
    workspaceId === null
      ? db
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      : db
          .update(sessions)
          .set({ workspaceId: null })
          .where(and(eq(sessions.userId, userId), eq(sessions.workspaceId, workspaceId), guard)),
    db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(apiTokens.createdBy, userId),
          inWorkspace(apiTokens.workspaceId, workspaceId),
          isNull(apiTokens.revokedAt),
          guard,
        ),
      ),
    endVehicleShares(db, holder, now),
    db
      .update(invites)
      .set({ revokedAt: now })
      .where(
        and(
          eq(invites.invitedBy, userId),
          inWorkspace(invites.workspaceId, workspaceId),
          isNull(invites.acceptedAt),
          isNull(invites.revokedAt),
          guard,
        ),
      ),
    db
      .delete(reportSubscriptions)
      .where(
        and(eq(reportSubscriptions.userId, userId), inWorkspace(reportSubscriptions.workspaceId, workspaceId), guard),
      ),
    // This workspace's notices to their phones (issue 41; an account's go by cascade too).
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), inWorkspace(pushSubscriptions.workspaceId, workspaceId), guard)),
    // Their customers' links to jobs (issue 51): read from D1 at each poll, so no object to tell.
    endJobShares(db, holder, now),
  ] as const;
}

/** A vehicle's share links the holder made (their hashes returned, for the objects to forget). */
function endVehicleShares(db: Db, { userId, workspaceId, guard }: CredentialHolder, now: number) {
  return db
    .update(vehicleShares)
    .set({ endedAt: now })
    .where(
      and(
        eq(vehicleShares.createdBy, userId),
        inWorkspace(vehicleShares.workspaceId, workspaceId),
        isNull(vehicleShares.endedAt),
        guard,
      ),
    )
    .returning({ workspaceId: vehicleShares.workspaceId, tokenHash: vehicleShares.tokenHash });
}

/** The customers' links to jobs the holder made. */
function endJobShares(db: Db, { userId, workspaceId, guard }: CredentialHolder, now: number) {
  return db
    .update(jobShares)
    .set({ endedAt: now })
    .where(
      and(
        eq(jobShares.createdBy, userId),
        inWorkspace(jobShares.workspaceId, workspaceId),
        isNull(jobShares.endedAt),
        guard,
      ),
    );
}

/** Where the share links' hashes are among the batch results of `endCredentials`'s statements. */
const SHARES_AT = 2;

/** The statements that end `holder`'s credentials, to run in the same batch as what ends the membership or account. */
export function endCredentials(db: Db, holder: CredentialHolder): BatchItem<"sqlite">[] {
  return [...enders(db, holder, Date.now())];
}

/** The share links the batch ended, by workspace (`results` are the batch's, `offset` where `endCredentials`' statements began). */
export function endedShares(results: readonly unknown[], offset: number): Map<string, string[]> {
  const ended = (results[offset + SHARES_AT] ?? []) as { workspaceId: string; tokenHash: string }[];
  const byWorkspace = new Map<string, string[]>();
  for (const s of ended) byWorkspace.set(s.workspaceId, [...(byWorkspace.get(s.workspaceId) ?? []), s.tokenHash]);
  return byWorkspace;
}

/**
 * After the batch: the objects answering the ended links' open pages forget them (announced as
 * WorkspaceChange.shares), so the next poll says "ended" at once.
 */
export async function forgetEndedShares(env: Env, results: readonly unknown[], offset: number): Promise<void> {
  await Promise.all(
    [...endedShares(results, offset)].map(([workspaceId, endedTokenHashes]) =>
      announceWrites({ env }, [workspaceId], { change: { shares: { endedTokenHashes }, poke: false } }),
    ),
  );
}
