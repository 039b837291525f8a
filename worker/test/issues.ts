import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { database } from "./db";
import { issueComments, issues } from "../../db/schema";
import { bumpVersion, versionOf } from "./db";
import { openIssueStatements, type NewIssue } from "../maintenance/issues";
import { insertVehicle } from "./factories";

/** An open issue on a new (or the given) vehicle, written as the app writes one: numbered, stamped, in one batch. */
export async function insertIssue(workspaceId: string, fields: Partial<NewIssue> = {}) {
  const db = database(env.DB);
  const id = fields.id ?? crypto.randomUUID();
  const vehicleId = fields.vehicleId ?? (await insertVehicle(workspaceId));
  await db.batch([
    bumpVersion(db, workspaceId),
    ...openIssueStatements(
      db,
      workspaceId,
      {
        title: "Flat tyre",
        priority: "medium",
        reportedByUserId: null,
        ...fields,
        id,
        vehicleId,
      },
      versionOf(workspaceId),
    ),
  ]);
  return { id, vehicleId };
}

export const issueRow = (id: string) => database(env.DB).select().from(issues).where(eq(issues.id, id)).get();
export const commentRow = (id: string) =>
  database(env.DB).select().from(issueComments).where(eq(issueComments.id, id)).get();
