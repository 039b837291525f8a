import type { BaseMap } from "./style-fallback";

/**
 * The base map's data sources, as their licences ask (docs/decisions/0025): OpenFreeMap's street
 * style is OpenStreetMap data (ODbL: "© OpenStreetMap contributors") in OpenMapTiles' schema; the
 * offline geography is Natural Earth and the US Census Bureau (public domain) and its city names
 * GeoNames' (CC BY 4.0). Mapbox's style has Mapbox's own attribution control instead.
 */
export function BaseMapAttribution({ base }: { base: BaseMap }) {
  if (base === "mapbox") return null;
  return (
    <div className="base-map-attribution" data-testid="base-map-attribution">
      {base === "openfreemap" ? (
        <>
          <a href="https://openfreemap.org" target="_blank" rel="noreferrer">
            OpenFreeMap
          </a>{" "}
          <a href="https://www.openmaptiles.org/" target="_blank" rel="noreferrer">
            © OpenMapTiles
          </a>{" "}
          <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noreferrer">
            © OpenStreetMap contributors
          </a>
        </>
      ) : (
        <>
          Natural Earth, US Census Bureau,{" "}
          <a href="https://www.geonames.org/" target="_blank" rel="noreferrer">
            GeoNames
          </a>
        </>
      )}
    </div>
  );
}
