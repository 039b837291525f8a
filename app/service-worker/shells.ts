/**
 * Which page shell answers a navigation when the service worker serves it (docs/decisions/0044).
 *
 * Every page's HTML is the same for every user (docs/decisions/0002), but not for every route:
 * Remix hydrates the routes that match the address against the modules and links the HTML names,
 * so `/issues/abc` needs the shell of the `/issues/:issueId` route, not the one of `/map`. The
 * build lists one shell per route pattern (from app/routes' file names), rendered by the Worker at
 * a sample address; the service worker answers any address of that pattern with it.
 */

/** A route pattern (`/vehicles/:vehicleId/overview`) and the address its shell is fetched from. */
export interface Shell {
  pattern: string;
  url: string;
}

/** The value a sample address puts in a dynamic segment: any value renders the same shell. */
const SAMPLE_PARAM = "0";

/**
 * Routes whose pages are never answered from the device: a server loader decides them (the OAuth
 * callback, the 404 catch-all) or they are one-time links opened online (shares, invites).
 */
const ONLINE_ONLY = new Set([
  "$",
  "oauth.$provider",
  "share.$token",
  "track.$token",
  "invite.$token",
  "unsubscribe.$token",
]);

/**
 * The page patterns of Remix flat route files (`_app.vehicles.$vehicleId.overview.tsx`):
 * pathless layouts (`_app`) add no segment, `_index` is its parent's own address, `$name` is a
 * dynamic segment. A layout route and its index share one pattern, listed once.
 */
export function shellsFromRouteFiles(files: readonly string[]): Shell[] {
  const patterns = new Set<string>();
  for (const file of files) {
    const id = file.replace(/\.tsx?$/, "");
    if (ONLINE_ONLY.has(id) || id === "_app") continue;
    const segments = id.split(".").filter((s) => !s.startsWith("_"));
    patterns.add(`/${segments.map((s) => (s.startsWith("$") ? `:${s.slice(1)}` : s)).join("/")}`);
  }
  return [...patterns].sort().map((pattern) => ({ pattern, url: sampleUrl(pattern) }));
}

const sampleUrl = (pattern: string) =>
  pattern
    .split("/")
    .map((s) => (s.startsWith(":") ? SAMPLE_PARAM : s))
    .join("/");

/** The shell for `pathname`, if a listed pattern matches it segment by segment (static before dynamic). */
export function shellFor(pathname: string, shells: readonly Shell[]): Shell | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const parts = path.split("/");
  let best: { shell: Shell; statics: number } | null = null;
  for (const shell of shells) {
    const pattern = shell.pattern.split("/");
    if (pattern.length !== parts.length) continue;
    const fits = pattern.every((s, i) => (s.startsWith(":") ? parts[i] !== "" : s === parts[i]));
    if (!fits) continue;
    const statics = pattern.filter((s) => !s.startsWith(":")).length;
    if (!best || statics > best.statics) best = { shell, statics };
  }
  return best?.shell ?? null;
}
