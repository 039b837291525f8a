/** Says, without getting in the way, that the map is drawn on the offline geography because Mapbox failed. */
export function StreetMapNotice() {
  return (
    <div className="street-map-notice" role="status">
      Street map unavailable
    </div>
  );
}
