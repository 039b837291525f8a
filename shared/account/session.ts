import { z } from "zod";

/** GET /api/me */
export const meResponseSchema = z.object({
  /**
   * `emailConfirmed`: whether the address was confirmed (issue 39); until then mail to others
   * waits. Absent in an answer cached before it existed: treated as confirmed.
   */
  viewer: z.object({ id: z.string(), email: z.string(), emailConfirmed: z.boolean().optional() }),
  workspace: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Every workspace the viewer belongs to, for the workspace switcher. */
  workspaces: z.array(z.object({ id: z.string(), name: z.string() })).default([]),
  flags: z.record(z.unknown()).default({}),
  /** The viewer's role in `workspace` (shared/account/roles.ts); the UI hides what it cannot do. */
  role: z.string().nullable().default(null),
});
export type MeResponse = z.infer<typeof meResponseSchema>;
export type Viewer = MeResponse["viewer"];
export type Workspace = NonNullable<MeResponse["workspace"]>;
export type Flags = MeResponse["flags"];

/** localStorage key of the persisted session: only the token is kept (docs/product.md section 3). */
export const SESSION_STORAGE_KEY = "las";
