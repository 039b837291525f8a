import { describe, expect, it } from "vitest";
import { knotsToMetresPerSecond } from "../../shared/units/units";
import { decodeAppend, decodeFixes, encodeAppend, encodeFixes, mergeFixes, type StoredFix } from "./codec";

const T0 = Date.UTC(2026, 10, 24, 8);

/**
 * A vehicle driving east every 5 s, as a tracker reports it: coordinates as decimal text with 6
 * decimals (parsed to the nearest double), speed in knots converted to m/s (not a short decimal).
 */
function drive(n: number, beaconId = "beacon-a", from = 0): StoredFix[] {
  return Array.from({ length: n }, (_, k): StoredFix => {
    const i = from + k;
    return {
      beaconId,
      recordedAt: T0 + i * 5_000,
      latitude: Number((43.6532 + i * 0.000113).toFixed(6)),
      longitude: Number((-79.3832 + Math.sin(i / 20) * 0.0021).toFixed(6)),
      speed: knotsToMetresPerSecond(20 + (i % 7) * 1.5),
      heading: (90 + i * 3) % 360,
      altitude: 120.5 + (i % 5),
      accuracy: 5,
      battery: 80 - Math.floor(i / 100),
      ignition: true,
      fuel: 64.2,
      odometer: 120_000 + i * 55.5,
      receivedAt: T0 + Math.floor(i / 12) * 60_000 + 61_000,
    };
  });
}

describe("the positions codec", () => {
  it("gives back every fix exactly, oldest first", () => {
    const fixes = drive(720);
    expect(decodeFixes(encodeFixes(fixes))).toEqual(fixes);
  });

  it("packs an hour of 5-second fixes in far fewer bytes than a row per fix", () => {
    const fixes = drive(720);
    const perFix = encodeFixes(fixes).byteLength / fixes.length;
    // D1 took 371 bytes per position; the target on disk is 48, SQLite's pages included.
    expect(perFix).toBeLessThan(16);
    // A float that is no short decimal costs its exception (here: speed computed, not sent).
    const computed = fixes.map((f, i) => ({ ...f, speed: Math.sqrt(100 + i) }));
    expect(encodeFixes(computed).byteLength / fixes.length).toBeLessThan(24);
  });

  it("sorts fixes given out of order", () => {
    const fixes = drive(50);
    const shuffled = [...fixes].reverse();
    shuffled.splice(10, 0, shuffled.splice(30, 1)[0]!);
    expect(decodeFixes(encodeFixes(shuffled))).toEqual(fixes);
  });

  it("keeps one fix per beacon and device time: the first given", () => {
    const [first, second] = drive(2);
    const resent = { ...first!, latitude: 1, receivedAt: first!.receivedAt + 1 };
    expect(decodeFixes(encodeFixes([first!, second!, resent]))).toEqual([first, second]);
    expect(mergeFixes([first!], [resent, second!])).toEqual([first, second]);
  });

  it("keeps fixes of two beacons at the same time (a rotated device id)", () => {
    const a = drive(3, "old-id");
    const b = drive(3, "new-id", 2);
    const decoded = decodeFixes(encodeFixes([...a, ...b]));
    expect(decoded).toHaveLength(6);
    expect(decoded.filter((f) => f.recordedAt === a[2]!.recordedAt).map((f) => f.beaconId)).toEqual([
      "new-id",
      "old-id",
    ]);
    expect(decoded).toEqual(expect.arrayContaining([...a, ...b]));
  });

  it("gives back nulls, extreme and awkward values exactly", () => {
    const base = drive(1)[0]!;
    const odd: StoredFix[] = [
      {
        ...base,
        recordedAt: 0,
        speed: null,
        heading: null,
        altitude: null,
        accuracy: null,
        battery: null,
        ignition: null,
        fuel: null,
        odometer: null,
      },
      {
        ...base,
        recordedAt: 8.64e15,
        receivedAt: 8.64e15,
        latitude: -90,
        longitude: 180,
        speed: Number.MAX_VALUE,
        altitude: -20_000,
        odometer: 1e300,
      },
      {
        ...base,
        recordedAt: 1,
        latitude: 5e-324,
        longitude: -0,
        speed: 0.1 + 0.2,
        heading: 359.99999999999994,
        ignition: false,
        fuel: -0,
      },
      {
        ...base,
        recordedAt: 2.5,
        latitude: 37.239000000000004,
        longitude: 1 / 3,
        accuracy: 1e-12,
        battery: 100,
        receivedAt: -1,
      },
    ];
    const decoded = decodeFixes(encodeFixes(odd));
    expect(decoded).toEqual(mergeFixes(odd));
    // toEqual treats -0 as 0: check the bits that matter.
    expect(Object.is(decoded.find((f) => f.recordedAt === 1)!.longitude, -0)).toBe(true);
    expect(Object.is(decoded.find((f) => f.recordedAt === 1)!.fuel, -0)).toBe(true);
  });

  it("holds one beacon id in unicode and an empty set", () => {
    expect(decodeFixes(encodeFixes([]))).toEqual([]);
    const one = { ...drive(1)[0]!, beaconId: "bé-🚚" };
    expect(decodeFixes(encodeFixes([one]))).toEqual([one]);
  });

  it("frames one append's fixes of several vehicles, each blob read on its own", () => {
    const a = drive(5, "beacon-a");
    const b = drive(3, "beacon-b", 10);
    const frames = decodeAppend(
      encodeAppend(
        new Map([
          ["vehicle-a", a],
          ["véhicule-b", b],
        ]),
      ),
    );
    expect([...frames.keys()]).toEqual(["vehicle-a", "véhicule-b"]);
    expect(decodeFixes(frames.get("vehicle-a")!)).toEqual(a);
    expect(decodeFixes(frames.get("véhicule-b")!)).toEqual(b);
    expect(decodeAppend(encodeAppend(new Map())).size).toBe(0);
  });

  it("refuses a blob it does not know", () => {
    expect(() => decodeFixes(new Uint8Array([9, 0, 0]))).toThrow(/unknown format/);
    expect(() => decodeFixes(encodeFixes(drive(5)).slice(0, 20))).toThrow(/truncated/);
  });
});
