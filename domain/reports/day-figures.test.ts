import { describe, expect, it } from "vitest";
import { addFigures, noFigures, type DayFigures } from "./day-figures";

const day = (figures: Partial<DayFigures>): DayFigures => ({ ...noFigures(), ...figures });

describe("day figures added together", () => {
  it("sums every figure but the top speed, which is the larger", () => {
    const a = day({
      distanceMetres: 1000,
      drivingSeconds: 60,
      idlingSeconds: 5,
      movingMetres: 900,
      maxSpeed: 30,
      speedingEpisodes: 1,
      trips: 2,
      stops: 1,
      fuelUsedPercent: 3,
    });
    const b = day({
      distanceMetres: 500,
      drivingSeconds: 40,
      idlingSeconds: 10,
      movingMetres: 450,
      maxSpeed: 20,
      speedingEpisodes: 2,
      trips: 1,
      stops: 3,
      fuelUsedPercent: 1.5,
    });
    expect(addFigures(a, b)).toEqual({
      distanceMetres: 1500,
      drivingSeconds: 100,
      idlingSeconds: 15,
      movingMetres: 1350,
      maxSpeed: 30,
      speedingEpisodes: 3,
      trips: 3,
      stops: 4,
      fuelUsedPercent: 4.5,
    });
  });

  it("keeps fuel used unknown only when neither reported fuel", () => {
    expect(addFigures(day({}), day({})).fuelUsedPercent).toBeNull();
    expect(addFigures(day({ fuelUsedPercent: 2 }), day({})).fuelUsedPercent).toBe(2);
    expect(addFigures(day({}), day({ fuelUsedPercent: 0 })).fuelUsedPercent).toBe(0);
  });

  it("leaves nothing for no days", () => {
    expect(addFigures(noFigures(), noFigures())).toEqual(noFigures());
  });
});
