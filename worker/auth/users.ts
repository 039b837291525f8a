import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { passwordCredentials, users } from "../db/schema";
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
    if (String(error).includes("UNIQUE")) return null;
    throw error;
  }
  return id;
}
