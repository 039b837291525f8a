import { useEffect } from "react";
import { useMapContext } from "./map-context";

/**
 * Keeps the map's drawing the size of its element when the page, not the window, resizes it (the
 * dispatch page makes room for a stop's panel): mapbox-gl 3 follows only the window's resizes, and
 * would otherwise stretch its last frame over the new box. Rendered inside <MapHost>.
 */
export function ResizeWithBox() {
  const { map } = useMapContext();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.resize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}
