import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  memberships,
  oauthAccounts,
  passwordCredentials,
  sessions,
  totpCredentials,
  users,
  workspaces,
} from "../../db/schema";

/**
 * "Download my data" (ASVS V8.3.8, GDPR art. 15 and 20): everything the product keeps about the
 * person, as JSON: the account, how it signs in (never a secret: no password hash, key or token),
 * its workspaces and roles, and its sign-ins. The fleets' vehicles and history belong to the
 * workspaces, not to the person, and are not part of it.
 */
export async function exportAccount(db: Db, userId: string) {
  const [account, password, google, twoFactor, roles, signIns] = await db.batch([
    db
      .select({ id: users.id, email: users.email, emailVerified: users.emailVerified, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, userId)),
    db
      .select({ updatedAt: passwordCredentials.updatedAt })
      .from(passwordCredentials)
      .where(eq(passwordCredentials.userId, userId)),
    db
      .select({ provider: oauthAccounts.provider, linkedAt: oauthAccounts.createdAt })
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, userId)),
    db
      .select({ enabledAt: totpCredentials.enabledAt })
      .from(totpCredentials)
      .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.enabledAt))),
    db
      .select({
        workspaceId: workspaces.id,
        workspace: workspaces.name,
        role: memberships.role,
        joinedAt: memberships.createdAt,
      })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .where(eq(memberships.userId, userId)),
    db
      .select({
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        network: sessions.network,
        device: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt))
      .limit(1000),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    account: account[0] ?? null,
    signIn: {
      password: password[0] ? { changedAt: password[0].updatedAt } : null,
      linkedProviders: google,
      twoFactor: twoFactor[0] ? { enabledAt: twoFactor[0].enabledAt } : null,
    },
    memberships: roles,
    sessions: signIns,
  };
}
