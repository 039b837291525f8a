import type { MutatorDefs } from "replicache";
import { mutators } from "../../shared/sync/mutators";

/** The query parameter that starts this page as the "next build" (browser tests of a deploy). */
export const NEXT_BUILD_PARAM = "sync-next-build";

/** Whether this page was opened as the next build (`?sync-next-build`). */
export const isNextBuild = () =>
  typeof window !== "undefined" && new URLSearchParams(window.location.search).has(NEXT_BUILD_PARAM);

/**
 * The mutator list this page's Replicache runs with: the build's own. Opened with
 * `?sync-next-build`, the page runs with one mutator more, as the next deploy adding a mutator
 * would, so a browser test can hold both builds at once (e2e/sync-lifecycle.spec.ts). Replicache
 * then forks a new client group for that page, which is exactly what a deploy does; the extra
 * mutator is never called, and the server would refuse it as unknown if it were.
 */
export function buildMutators(nextBuild: boolean): MutatorDefs {
  if (nextBuild) {
    return { ...mutators, async nextBuildMutator() {} };
  }
  return mutators;
}
