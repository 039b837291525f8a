/**
 * The map's code, loaded on demand (docs/decisions/0054): the fleet map with mapbox-gl and its
 * stylesheet, and the vehicle list and panel that float over it, are 600 KB gzipped that no other
 * page needs. The app layout renders them through React.lazy with these loaders.
 */
export const loadFleetMap = () => import("./fleet-map");
export const loadMapOverlay = () => import("./map-overlay");
const loadMapbox = () => import("./mapbox-gl");

/**
 * A page opened on /map asks for all of it as the app's own code is evaluated, before the session
 * check and the store: mapbox-gl is most of the page's bytes, and waiting for the layout to render
 * the lazy map (and that module to ask for mapbox-gl) would put two round trips and the session
 * check in front of its download. The map's own twenty small modules are asked for one task later,
 * once the session check and the sync client (requested by the shell's code, a few promise steps
 * after it runs) have left: over HTTP/1.1's six connections they would otherwise queue those two
 * behind them, and the map waits for both (docs/decisions/0065).
 */
export function preloadMapOn(pathname: string | null) {
  if (pathname !== "/map") return;
  void loadMapbox();
  setTimeout(() => {
    void loadFleetMap();
    void loadMapOverlay();
  }, 0);
}
