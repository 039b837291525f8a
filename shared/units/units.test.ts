import { describe, expect, it } from "vitest";
import { distanceMetres } from "./geo";
import { knotsToMetresPerSecond, metresPerSecondToMph, metresToMiles, mphToKnots, mpgToLitresPer100Km } from "./units";
import { fleetStatus, isFleetStatus, isIgnitionOn, vehicleState } from "../fleet/vehicle-state";

describe("units", () => {
  it("converts knots, m/s, mph and miles", () => {
    expect(knotsToMetresPerSecond(10)).toBeCloseTo(5.14444, 5);
    expect(metresPerSecondToMph(knotsToMetresPerSecond(mphToKnots(60)))).toBeCloseTo(60, 6);
    expect(metresPerSecondToMph(1)).toBeCloseTo(2.236936, 5);
    expect(metresToMiles(1609.344)).toBe(1);
  });

  it("turns mpg into L/100 km, the way round a metric driver reads it", () => {
    // 23.5 mpg (US) is the usual 10 L/100 km; twice the mpg is half the litres.
    expect(mpgToLitresPer100Km(23.5215)).toBeCloseTo(10, 3);
    expect(mpgToLitresPer100Km(47.043)).toBeCloseTo(5, 3);
  });
});

describe("distance", () => {
  it("measures great-circle metres", () => {
    // One degree of latitude is about 111.2 km on a 6,371 km sphere.
    expect(distanceMetres({ latitude: 40, longitude: -100 }, { latitude: 41, longitude: -100 })).toBeCloseTo(
      111_195,
      -1,
    );
    expect(distanceMetres({ latitude: 40, longitude: -100 }, { latitude: 40, longitude: -100 })).toBe(0);
  });
});

describe("vehicle state", () => {
  it("is grey without an active beacon, parked with the ignition off, green otherwise", () => {
    expect(vehicleState("INACTIVE", "moving")).toBe("inactive");
    expect(vehicleState(undefined, undefined)).toBe("inactive");
    expect(vehicleState("ACTIVE", "off")).toBe("parked");
    expect(vehicleState("ACTIVE", "idle")).toBe("moving");
    expect(vehicleState("ACTIVE", "towing")).toBe("moving");
    expect([isIgnitionOn("off"), isIgnitionOn(undefined), isIgnitionOn("idle")]).toEqual([false, false, true]);
  });
});

describe("fleet status (the overview's four kinds)", () => {
  it("splits the map's green into moving and idle, and calls its grey silent", () => {
    expect(fleetStatus("ACTIVE", "moving")).toBe("moving");
    expect(fleetStatus("ACTIVE", "towing")).toBe("moving");
    expect(fleetStatus("ACTIVE", "idle")).toBe("idle");
    expect(fleetStatus("ACTIVE", "off")).toBe("parked");
    // An active beacon with no status in the store yet: the map draws it green, so it counts as moving.
    expect(fleetStatus("ACTIVE", undefined)).toBe("moving");
    expect(fleetStatus("INACTIVE", "idle")).toBe("silent");
    expect(fleetStatus(undefined, "moving")).toBe("silent");
  });

  it("reads a status from an address only when it is one of the four", () => {
    expect([isFleetStatus("idle"), isFleetStatus("inactive"), isFleetStatus(null)]).toEqual([true, false, false]);
  });
});
