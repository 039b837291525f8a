import { describe, expect, it } from "vitest";
import {
  FUEL_CHECK_DAYS,
  REFUEL_MATCH_WINDOW_MS,
  fillUpsWithNoRise,
  unloggedRefuels,
  type SeenFuelEvent,
} from "./fuel-check";

const HOUR = 60 * 60_000;
const NOW = Date.parse("2026-06-01T12:00:00Z");
const ago = (hours: number) => NOW - hours * HOUR;
const refuel = (id: string, hoursAgo: number, vehicleId = "v1"): SeenFuelEvent => ({
  id,
  vehicleId,
  type: "REFUEL",
  startTime: ago(hoursAgo),
  endTime: ago(hoursAgo) + 10 * 60_000,
});
const fillUp = (id: string, hoursAgo: number, vehicleId = "v1") => ({ id, vehicleId, at: ago(hoursAgo) });
const everyBeacon = () => true;

describe("fillUpsWithNoRise", () => {
  it("flags a fill-up with no refuel within the window, and not one the tank rose for", () => {
    const events = [refuel("r1", 48)];
    const fills = [fillUp("matched", 48 - 1.5), fillUp("invented", 24)];
    expect([...fillUpsWithNoRise(fills, events, everyBeacon, NOW)]).toEqual(["invented"]);
  });

  it("matches a refuel up to the window either side of its span, and no further", () => {
    const events = [refuel("r1", 48)];
    const justIn = { id: "in", vehicleId: "v1", at: events[0]!.startTime - REFUEL_MATCH_WINDOW_MS };
    const justOut = { id: "out", vehicleId: "v1", at: events[0]!.endTime! + REFUEL_MATCH_WINDOW_MS + 60_000 };
    expect([...fillUpsWithNoRise([justIn, justOut], events, everyBeacon, NOW)]).toEqual(["out"]);
  });

  it("judges nothing of a vehicle whose beacon sends no fuel level", () => {
    const events = [refuel("r1", 48)];
    expect(fillUpsWithNoRise([fillUp("a", 24)], events, () => false, NOW).size).toBe(0);
  });

  it("judges nothing before the watch has seen the tank move, nor another vehicle's refuels", () => {
    const events = [refuel("r1", 10)];
    // Logged days before the first refuel seen: the sensor may not have followed the tank then.
    expect(fillUpsWithNoRise([fillUp("early", 72)], events, everyBeacon, NOW).size).toBe(0);
    // v2 has no fuel event of its own, so its fill-up is not held against v1's refuel.
    expect(fillUpsWithNoRise([fillUp("other", 5, "v2")], events, everyBeacon, NOW).size).toBe(0);
  });

  it("a fuel drop shows the watch follows the tank, but is no rise", () => {
    const drop: SeenFuelEvent = { ...refuel("d1", 30), type: "FUEL_DROP" };
    expect([...fillUpsWithNoRise([fillUp("a", 30)], [drop], everyBeacon, NOW)]).toEqual(["a"]);
  });

  it("waits for the window to pass before flagging a fresh fill-up", () => {
    const events = [refuel("r1", 48)];
    expect(fillUpsWithNoRise([fillUp("fresh", 1)], events, everyBeacon, NOW).size).toBe(0);
    expect([...fillUpsWithNoRise([fillUp("fresh", 1)], events, everyBeacon, NOW + 2 * HOUR)]).toEqual(["fresh"]);
  });

  it("judges only the checked days (the synced window)", () => {
    const days = FUEL_CHECK_DAYS * 24;
    const events = [refuel("old", days + 10), refuel("r1", 48)];
    expect(fillUpsWithNoRise([fillUp("ancient", days + 5)], events, everyBeacon, NOW).size).toBe(0);
  });
});

describe("unloggedRefuels", () => {
  it("lists refuels with no fill-up of their vehicle near them, newest first", () => {
    const events = [refuel("logged", 48), refuel("older", 72), refuel("newer", 5), refuel("v2s", 5, "v2")];
    const fills = [fillUp("f", 47), fillUp("v2f", 30, "v2")];
    expect(unloggedRefuels(events, fills, NOW).map((e) => e.id)).toEqual(["newer", "v2s", "older"]);
  });

  it("leaves out fuel drops and refuels older than the checked days", () => {
    const drop: SeenFuelEvent = { ...refuel("d", 5), type: "FUEL_DROP" };
    const old = refuel("old", FUEL_CHECK_DAYS * 24 + 1);
    expect(unloggedRefuels([drop, old], [], NOW)).toEqual([]);
  });
});
