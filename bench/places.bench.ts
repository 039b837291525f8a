// The place and alert evaluators (domain/places, domain/alerts; docs/decisions/0019) on their own,
// in Node: the cost of one fix with 10 places and with 1,000 places in the workspace (ten rules
// either way), over a vehicle driving a 2-hour route through a city the places are spread over.
// The index should make the two cost about the same (Traccar tests every geofence on every fix).
import { alertRuleBodySchema, type AlertRule } from "../shared/alerts/alert-rules";
import type { PlaceGeometry } from "../shared/places/places";
import { emptyAlertState, evaluateAlerts } from "../domain/alerts/evaluate";
import { emptyPlaceState, evaluatePlaces } from "../domain/places/evaluate";
import { PlaceIndex } from "../domain/places/place-index";
import { compilePlace, signedDistance, toLocal } from "../domain/places/shape";
import { report } from "./lib";

const CENTER = { lat: 41.88, lon: -87.63 };
const FIXES = 7200;

function places(count: number) {
  // spread over about 30 × 30 km, half circles and half 6-corner polygons of 100-400 m
  return Array.from({ length: count }, (_, i) => {
    const lat = CENTER.lat + (((i * 7919) % 1000) / 1000) * 0.27 - 0.135;
    const lon = CENTER.lon + (((i * 104729) % 1000) / 1000) * 0.36 - 0.18;
    const r = 100 + (i % 4) * 100;
    const geometry: PlaceGeometry =
      i % 2 === 0
        ? { type: "Circle", center: [lon, lat], radius: r }
        : {
            type: "Polygon",
            coordinates: [
              Array.from(
                { length: 6 },
                (_, k) =>
                  [
                    lon + (r / 82_000) * Math.cos((k * Math.PI) / 3),
                    lat + (r / 111_000) * Math.sin((k * Math.PI) / 3),
                  ] as [number, number],
              ),
            ],
          };
    return { id: `p${i}`, geometry };
  });
}

const rules: AlertRule[] = [
  { type: "place_enter" },
  { type: "place_exit" },
  { type: "speeding", speedMph: 65, minSeconds: 20 },
  { type: "speeding", speedMph: 80, minSeconds: 5 },
  { type: "idling", minutes: 10 },
  { type: "tow" },
  { type: "clock_ahead" },
  { type: "beacon_silent", minutes: 30 },
  { type: "place_enter", placeId: "p1" },
  { type: "idling", minutes: 30 },
].map((body, i) => ({ id: `r${i}`, ...alertRuleBodySchema.parse(body) }));

function drive(index: PlaceIndex): number {
  let places = emptyPlaceState();
  let alerts = emptyAlertState();
  let events = 0;
  const t0 = Date.now();
  const started = performance.now();
  for (let i = 0; i < FIXES; i++) {
    // a lawnmower route across the city, 1 s apart, ~15 m/s
    const row = Math.floor(i / 1200);
    const along = (i % 1200) / 1200;
    const fix = {
      time: t0 + i * 1000,
      latitude: CENTER.lat - 0.12 + row * 0.04,
      longitude: CENTER.lon - 0.17 + (row % 2 ? 1 - along : along) * 0.34,
      accuracy: 8,
      speed: 15,
      ignition: true,
    };
    const p = evaluatePlaces(places, fix, index);
    const a = evaluateAlerts(alerts, "v1", fix, p.events, rules);
    places = p.state;
    alerts = a.alerts.length ? a.state : a.state;
    events += p.events.length;
  }
  void events;
  return ((performance.now() - started) * 1000) / FIXES;
}

/** What Traccar does: every place tested exactly on every fix (containment only, no segments). */
function scanAll(count: number): number {
  const compiled = places(count).map((p) => compilePlace(p.id, p.geometry));
  let inside = 0;
  const started = performance.now();
  for (let i = 0; i < FIXES; i++) {
    const row = Math.floor(i / 1200);
    const along = (i % 1200) / 1200;
    const lat = CENTER.lat - 0.12 + row * 0.04;
    const lon = CENTER.lon - 0.17 + (row % 2 ? 1 - along : along) * 0.34;
    for (const place of compiled) if (signedDistance(place, ...toLocal(place, lon, lat)) < 0) inside++;
  }
  void inside;
  return ((performance.now() - started) * 1000) / FIXES;
}

const small = new PlaceIndex(places(10));
const large = new PlaceIndex(places(1000));
drive(small);
drive(large); // warm up
const runs = 5;
const smallUs = Math.min(...Array.from({ length: runs }, () => drive(small)));
const largeUs = Math.min(...Array.from({ length: runs }, () => drive(large)));
const scanUs = Math.min(...Array.from({ length: 3 }, () => scanAll(1000)));
const buildStarted = performance.now();
new PlaceIndex(places(1000));
const buildMs = performance.now() - buildStarted;

report(
  "Place and alert evaluation per fix (pure, Node)",
  [
    { metric: "per fix, 10 places + 10 rules", value: smallUs, unit: "µs" },
    { metric: "per fix, 1,000 places + 10 rules", value: largeUs, unit: "µs" },
    { metric: "1,000 places / 10 places", value: largeUs / smallUs, unit: "×", target: "about 1 (the index)" },
    { metric: "per fix, 1,000 places tested one by one (no index; containment only)", value: scanUs, unit: "µs" },
    { metric: "index build, 1,000 places", value: buildMs, unit: "ms" },
  ],
  `${FIXES} fixes, best of ${runs} runs. With 1,000 places about one per km² the route really enters and leaves far more of them (events, pass-through segments), which is most of the difference between 10 and 1,000.`,
);
