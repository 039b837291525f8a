/**
 * The map's code, loaded on demand (docs/decisions/0054): the fleet map with mapbox-gl and its
 * stylesheet, and the vehicle list and panel that float over it, are 600 KB gzipped that no other
 * page needs. The layout renders the app's map (app-map.tsx: the sketch drawn before the map,
 * docs/decisions/0068) through React.lazy, and the app's map the rest, with these loaders.
 */
export const loadAppMap = () => import("./app-map");
export const loadFleetMap = () => import("./fleet-map");
export const loadMapOverlay = () => import("./map-overlay");
const loadMapbox = () => import("./mapbox-gl");

/**
 * mapbox-gl and the fleet map's modules together, asked for once the store has opened
 * (app-map.tsx): the map's host would otherwise ask for mapbox-gl only after its own module has
 * arrived, one more round trip (docs/decisions/0068).
 */
export function loadMapCode() {
  void loadMapbox();
  void loadFleetMap();
}

/**
 * A page opened on /map asks for the sketch's and the vehicle list's modules as the app's own code
 * is evaluated, one task later, once the session check and the sync client (requested by the
 * shell's code, a few promise steps after it runs) have left: over HTTP/1.1's six connections they
 * would otherwise queue those two behind them (docs/decisions/0065). mapbox-gl waits for the store
 * (0068).
 */
export function preloadMapOn(pathname: string | null) {
  if (pathname !== "/map") return;
  setTimeout(() => {
    void loadAppMap();
    void loadMapOverlay();
  }, 0);
}
