import { env } from "cloudflare:workers";
import { database } from "./db";
import { jobs } from "../../db/schema";
import { bumpVersion, versionOf } from "./db";

export type JobFields = Partial<typeof jobs.$inferInsert> & { date: string };

/**
 * A job row written straight to D1, stamped with its workspace's new version as the write path
 * leaves it: for tests of what reads jobs (tracking, customer links, device times), not of writing them.
 */
export async function insertJob(workspaceId: string, fields: JobFields): Promise<string> {
  const db = database(env.DB);
  const id = fields.id ?? crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(jobs).values({
      id,
      workspaceId,
      number: Math.floor(Math.random() * 1e9),
      title: "Stop",
      latitude: 0,
      longitude: 0,
      version: versionOf(workspaceId),
      ...fields,
    }),
  ]);
  return id;
}
