import { z } from "zod";

/**
 * The account's own controls (Settings -> Security): the active sign-ins as
 * `GET /api/account/sessions` answers them, and how one is named on screen.
 */

/** One sign-in as the sessions list shows it (its workspace switches are one entry). */
export interface ActiveSession {
  id: string;
  /** The User-Agent it signed in with (at most 256 characters), if any. */
  device: string | null;
  /** The network it signed in from, as the abuse limits key it (worker/auth/rate-limit.ts `networkOf`): an IPv4 address whole, an IPv6 one by its /64; null if unknown. */
  network: string | null;
  signedInAt: number;
  lastUsedAt: number;
  /** The sign-in of the browser asking. */
  current: boolean;
}

export interface ActiveSessionsAnswer {
  sessions: ActiveSession[];
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrom(e|ium)\/|CriOS\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/**
 * "Chrome on Linux" from a User-Agent: what a person recognises their device by. Order matters
 * (Edge and Opera say Chrome too, Chrome says Safari, Android says Linux). Anything else (a
 * script, curl) is shown by its product token, and no User-Agent as "Unknown device".
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system)!;
  return userAgent.split(/[\s/]/)[0]?.slice(0, 40) || "Unknown device";
}

/** POST api/account/delete: the account's e-mail typed again, and its password if it has one. */
export const deleteAccountSchema = z.object({
  email: z
    .string({ required_error: "Required" })
    .trim()
    .min(1, "Required")
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string().max(1024).optional(),
  /** With two-factor authentication on: a code from the app or a recovery code (issue 34). */
  code: z.string().trim().max(40, "Too long").optional(),
});

/** GET api/account/deletion: what deleting the account would do to the workspaces it owns. */
export interface DeletionPlanAnswer {
  /** Shared workspaces it is the only owner of: name another owner (Team) first. */
  blocking: { id: string; name: string }[];
  /** Workspaces it is alone in: deleted with the account, vehicles and history included. */
  deleted: { id: string; name: string }[];
  hasPassword: boolean;
  /** Whether deletion asks a second-factor code (two-factor authentication is on). */
  hasSecondFactor: boolean;
}
