/**
 * The map's own large files (mapbox-gl, the offline geography, glyphs: scripts/service-worker-plugin.ts
 * MAP_FILES), kept by the service worker after it has taken control rather than before
 * (docs/decisions/0075): the rest of the build, a third of its size, is enough to open every page
 * with no network, so a first visit is offline-ready sooner, and the map's files follow in the background.
 * One cache per build; an older build's goes when this one activates.
 */
const PREFIX = "fleet-ops-map-files-";

export const mapFilesCache = (build: string) => `${PREFIX}${build}`;

/** Answers a map file from this build's cache, else from the network (keeping what it fetched). */
export async function mapFileResponse(build: string, request: Request, path: string): Promise<Response> {
  const cache = await caches.open(mapFilesCache(build));
  const kept = await cache.match(path);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(path, response.clone());
  return response;
}

/** Fetches the files not kept yet, a few at a time; true once every one is kept. */
export async function keepMapFiles(build: string, paths: readonly string[]): Promise<boolean> {
  const cache = await caches.open(mapFilesCache(build));
  const missing: string[] = [];
  for (const path of paths) if (!(await cache.match(path))) missing.push(path);
  const fetchOne = async () => {
    for (let path = missing.pop(); path !== undefined; path = missing.pop()) {
      const response = await fetch(path).catch(() => null);
      if (response?.ok) await cache.put(path, response);
    }
  };
  await Promise.all([fetchOne(), fetchOne(), fetchOne()]);
  for (const path of paths) if (!(await cache.match(path))) return false;
  return true;
}

export async function dropOtherBuildsMapFiles(build: string): Promise<void> {
  const names = await caches.keys();
  await Promise.all(
    names.filter((n) => n.startsWith(PREFIX) && n !== mapFilesCache(build)).map((n) => caches.delete(n)),
  );
}
