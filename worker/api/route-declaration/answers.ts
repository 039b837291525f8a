import { z } from "zod";

/** The answers many routes share, as their declarations name them (GET /api/openapi.json). */
export const okAnswer = z.object({ ok: z.literal(true) });
/** A session token: signing in, switching workspace, a changed password. */
export const tokenAnswer = z.object({ token: z.string() });
