import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memberships, passwordCredentials, users } from "../../db/schema";
import { hashPassword } from "./password";

export async function findUserByEmail(db: Db, email: string) {
  return (await db.select().from(users).where(eq(users.email, email.toLowerCase())).get()) ?? null;
}

/** Creates a user with a password; null when the e-mail is taken. */
export async function createUserWithPassword(db: Db, email: string, password: string) {
  const id = crypto.randomUUID();
  const hash = await hashPassword(password);
  try {
    await db.batch([
      db.insert(users).values({ id, email: email.toLowerCase() }),
      db.insert(passwordCredentials).values({ userId: id, hash }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  return id;
}

/** Signing in lands in the user's first workspace, so returning users go straight to the map. */
export async function firstWorkspaceOf(db: Db, userId: string) {
  const row = await db
    .select({ id: memberships.workspaceId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(memberships.createdAt)
    .get();
  return row?.id ?? null;
}

export function isUniqueViolation(error: unknown): boolean {
  const text = `${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  return text.includes("UNIQUE");
}
