import { describe, expect, it } from "vitest";
import { alertRuleBodySchema, type AlertRule, type AlertRuleBody } from "../../shared/alerts/alert-rules";
import type { PlaceEvent } from "../places/evaluate";
import {
  emptyAlertState,
  evaluateAlerts,
  evaluateSilence,
  type AlertFix,
  type AlertOutput,
  type AlertState,
} from "./evaluate";

const rule = (id: string, body: AlertRuleBody): AlertRule => ({ id, ...alertRuleBodySchema.parse(body) });
const MPH = 0.44704;

function drive(
  rules: AlertRule[],
  fixes: (Partial<AlertFix> & { time: number })[],
  places: Record<number, PlaceEvent[]> = {},
) {
  let state: AlertState = emptyAlertState();
  const out: AlertOutput[] = [];
  for (const f of fixes) {
    const fix: AlertFix = { latitude: 41.88, longitude: -87.63, speed: 0, ignition: true, ...f };
    const step = evaluateAlerts(state, "v1", fix, places[f.time] ?? [], rules);
    state = JSON.parse(JSON.stringify(step.state)) as AlertState;
    out.push(...step.alerts);
  }
  return { state, out };
}

const seconds = (n: number, every: number, fix: (t: number) => Partial<AlertFix>) =>
  Array.from({ length: Math.floor(n / every) + 1 }, (_, i) => ({ time: i * every * 1000, ...fix(i * every * 1000) }));

describe("speeding", () => {
  const speeding = rule("r1", { type: "speeding", speedMph: 70, minSeconds: 30 });

  it("raises one alert for ten minutes over the limit, with its peak and its end", () => {
    const fixes = [
      ...seconds(600, 1, (t) => ({ speed: (75 + (t === 300_000 ? 10 : 0)) * MPH })),
      { time: 601_000, speed: 60 * MPH },
    ];
    const { out } = drive([speeding], fixes);
    expect(out.map((o) => o.kind)).toEqual(["open", "close"]);
    expect(out[0]).toMatchObject({ kind: "open", alert: { type: "speeding", at: 0, vehicleId: "v1", ruleId: "r1" } });
    expect(out[1]).toMatchObject({ kind: "close", alert: { id: out[0]!.alert.id, endAt: 601_000, peak: 85 } });
  });

  it("raises nothing for a burst shorter than the minimum duration", () => {
    const { out } = drive(
      [speeding],
      [...seconds(20, 1, () => ({ speed: 80 * MPH })), { time: 21_000, speed: 50 * MPH }],
    );
    expect(out).toEqual([]);
  });

  it("gives a replayed episode the same alert id (never two alerts for one episode)", () => {
    const fixes = seconds(60, 5, () => ({ speed: 80 * MPH }));
    expect(drive([speeding], fixes).out[0]).toEqual(drive([speeding], fixes).out[0]);
  });

  it("applies only to the chosen vehicles", () => {
    const onlyOthers = rule("r2", { type: "speeding", speedMph: 70, minSeconds: 0, vehicleIds: ["v9"] });
    expect(
      drive(
        [onlyOthers],
        seconds(60, 5, () => ({ speed: 80 * MPH })),
      ).out,
    ).toEqual([]);
  });
});

describe("idling, tow, clock", () => {
  it("raises idling after N minutes with the ignition on and standing still", () => {
    const idling = rule("i", { type: "idling", minutes: 5 });
    const { out } = drive(
      [idling],
      [...seconds(600, 30, () => ({ speed: 0, ignition: true })), { time: 630_000, speed: 10 }],
    );
    expect(out.map((o) => o.kind)).toEqual(["open", "close"]);
    expect(out[0]).toMatchObject({ alert: { at: 0 } });
  });

  it("does not call a parked vehicle idle", () => {
    const { out } = drive(
      [rule("i", { type: "idling", minutes: 1 })],
      seconds(600, 30, () => ({ ignition: false })),
    );
    expect(out).toEqual([]);
  });

  it("raises a tow for moving with the ignition off", () => {
    const { out } = drive(
      [rule("t", { type: "tow" })],
      seconds(120, 10, () => ({ ignition: false, speed: 8 })),
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ alert: { type: "tow", peak: 17.9 } });
  });

  it("raises one clock-ahead alert for a run of refused reports, ended by a good one", () => {
    const clock = rule("c", { type: "clock_ahead" });
    const { out } = drive(
      [clock],
      [{ time: 0 }, { time: 10_000, clockAheadMs: 600_000 }, { time: 20_000, clockAheadMs: 900_000 }, { time: 30_000 }],
    );
    expect(out.map((o) => o.kind)).toEqual(["open", "close"]);
    expect(out[1]).toMatchObject({ alert: { peak: 900 } });
  });
});

describe("places and silence", () => {
  const enter: PlaceEvent = { type: "enter", placeId: "depot", at: 5_000, latitude: 1, longitude: 2 };
  const exit: PlaceEvent = { type: "exit", placeId: "depot", at: 8_000, latitude: 1, longitude: 2 };

  it("turns place events into alerts for rules on that place or any place", () => {
    const rules = [
      rule("a", { type: "place_enter", placeId: "depot" }),
      rule("b", { type: "place_exit" }),
      rule("c", { type: "place_enter", placeId: "other" }),
    ];
    const { out } = drive(rules, [{ time: 10_000 }], { 10_000: [enter, exit] });
    expect(out.map((o) => [o.alert.ruleId, o.alert.placeId, o.alert.at])).toEqual([
      ["a", "depot", 5_000],
      ["b", "depot", 8_000],
    ]);
  });

  it("raises beacon silence on the clock once, and ends it with the next report", () => {
    const silent = rule("s", { type: "beacon_silent", minutes: 15 });
    const { state } = drive([silent], [{ time: 0 }]);
    expect(evaluateSilence(state, "v1", 10 * 60_000, [silent]).alerts).toEqual([]);
    const raised = evaluateSilence(state, "v1", 20 * 60_000, [silent]);
    expect(raised.alerts).toHaveLength(1);
    expect(evaluateSilence(raised.state, "v1", 30 * 60_000, [silent]).alerts).toEqual([]);
    const back = evaluateAlerts(
      raised.state,
      "v1",
      { time: 31 * 60_000, latitude: 0, longitude: 0, speed: 0, ignition: true },
      [],
      [silent],
    );
    expect(back.alerts).toEqual([{ kind: "close", alert: { ...raised.alerts[0]!.alert, endAt: 31 * 60_000 } }]);
  });
});

describe("rule shapes", () => {
  it("refuses an unknown type and a speed of zero with clear messages", () => {
    expect(alertRuleBodySchema.safeParse({ type: "nope" }).error?.issues[0]?.message).toMatch(/type must be one of/);
    expect(alertRuleBodySchema.safeParse({ type: "speeding", speedMph: 0 }).error?.issues[0]?.message).toBe(
      "More than 0 mph",
    );
  });
});
