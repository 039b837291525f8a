import { describe, expect, it } from "vitest";
import { alertRuleBodySchema } from "../../shared/alerts/alert-rules";
import { placeBodySchema } from "../../shared/places/places";
import { compilePlace, signedDistance, toLocal } from "../../domain/places/shape";
import { DEMO_RULES, demoPlaces } from "./demo-extras";
import { cities } from "./routes";

/** The room's own geometry (domain/places/shape.ts): inside a place, the signed distance is negative. */
function inside(geometry: Parameters<typeof compilePlace>[1], lng: number, lat: number) {
  const place = compilePlace("p", placeBodySchema.parse({ name: "p", geometry }).geometry);
  return signedDistance(place, ...toLocal(place, lng, lat)) < 0;
}

describe("the demo's places and rules", () => {
  it("are what the API accepts: a circle at every city's depot and a polygon", () => {
    const places = demoPlaces();
    for (const place of places) expect(placeBodySchema.safeParse(place).success, place.name).toBe(true);
    expect(places.filter((p) => p.geometry.type === "Circle")).toHaveLength(cities.length);
    expect(places.filter((p) => p.geometry.type === "Polygon")).toHaveLength(1);
    for (const rule of DEMO_RULES) expect(alertRuleBodySchema.safeParse(rule).success, rule.type).toBe(true);
  });

  it("lie where the simulator drives: each route's start in a depot, Chicago's first route's end in the yard", () => {
    const [depot] = demoPlaces();
    const [lat, lng] = cities[0]!.routes[0]!.line[0]!;
    expect(inside(depot!.geometry, lng, lat)).toBe(true);
    const yard = demoPlaces().at(-1)!;
    const end = cities[0]!.routes[0]!.line.at(-1)!;
    expect(inside(yard.geometry, end[1], end[0])).toBe(true);
  });
});
