/**
 * Who a request is from, as the session middleware (worker/auth/session.ts) found it. Its own file
 * so the Hono environment (worker/types.ts) and the API tokens can name it without importing the
 * session code that uses them (no import circle, issue 40).
 */
export interface SessionInfo {
  tokenHash: string;
  userId: string;
  workspaceId: string | null;
  /** The user's role in that workspace (shared/account/roles.ts), read with the membership: null without one. */
  role: string | null;
  /** Every token derived from one sign-in shares it (a workspace switch keeps it). */
  signinId: string;
  /** Set when the bearer is an integrator's API token, not a person's session (worker/auth/api-tokens.ts). */
  apiToken?: { id: string; scope: "read" | "write" };
}
