import { describe, expect, it } from "vitest";
import { fitCamera, openingCamera, projectWith } from "./camera";
import { fitPadding, INITIAL_VIEW, phoneFitPadding } from "./geometry";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 700 };
const NEW_YORK = { lng: -74.006, lat: 40.7128 };

describe("the map's opening camera", () => {
  it("puts one vehicle in the middle of the padded area, at zoom 14", () => {
    const camera = fitCamera([NEW_YORK], DESKTOP.width, DESKTOP.height)!;
    expect(camera.zoom).toBe(14);
    const pad = fitPadding(DESKTOP.width, DESKTOP.height);
    const at = projectWith(camera, DESKTOP.width, DESKTOP.height, NEW_YORK);
    expect(at.x).toBeCloseTo(pad.left + (DESKTOP.width - pad.left - pad.right) / 2, 6);
    expect(at.y).toBeCloseTo(DESKTOP.height / 2, 6);
  });

  it("fits a spread fleet edge to edge inside the padding, on the axis that binds", () => {
    const fleet = [
      { lng: -122.42, lat: 37.77 },
      { lng: -74.0, lat: 40.71 },
      { lng: -87.63, lat: 41.88 },
      { lng: -95.37, lat: 29.76 },
    ];
    const camera = fitCamera(fleet, DESKTOP.width, DESKTOP.height)!;
    const pad = fitPadding(DESKTOP.width, DESKTOP.height);
    const xs = fleet.map((p) => projectWith(camera, DESKTOP.width, DESKTOP.height, p).x);
    const ys = fleet.map((p) => projectWith(camera, DESKTOP.width, DESKTOP.height, p).y);
    // West to east spans the room between the paddings exactly; north to south fits inside its room.
    expect(Math.min(...xs)).toBeCloseTo(pad.left, 6);
    expect(Math.max(...xs)).toBeCloseTo(DESKTOP.width - pad.right, 6);
    expect(Math.min(...ys)).toBeGreaterThan(pad.top);
    expect(Math.max(...ys)).toBeLessThan(DESKTOP.height - pad.bottom);
    expect(camera.zoom).toBeLessThan(5);
  });

  it("on a phone keeps the vehicles above the sheet", () => {
    const camera = fitCamera([NEW_YORK], PHONE.width, PHONE.height)!;
    const pad = phoneFitPadding(PHONE.width, PHONE.height);
    const at = projectWith(camera, PHONE.width, PHONE.height, NEW_YORK);
    expect(at.y).toBeCloseTo(pad.top + (PHONE.height - pad.top - pad.bottom) / 2, 6);
    expect(at.x).toBeCloseTo(PHONE.width / 2, 6);
  });

  it("opens on the initial view while every vehicle is in it, and on the fit once one is not", () => {
    expect(openingCamera([], DESKTOP.width, DESKTOP.height)).toEqual(INITIAL_VIEW);
    expect(openingCamera([{ lng: -100, lat: 40 }], DESKTOP.width, DESKTOP.height)).toEqual(INITIAL_VIEW);
    expect(openingCamera([{ lng: -100, lat: 40 }, NEW_YORK], DESKTOP.width, DESKTOP.height)).toEqual(
      fitCamera([{ lng: -100, lat: 40 }, NEW_YORK], DESKTOP.width, DESKTOP.height),
    );
  });

  it("counts a vehicle under the panel, or under a phone's sheet, as out of view", () => {
    // Just east of the initial centre's left edge on a desktop: behind the 325 px panel.
    const underPanel = { lng: -100 - ((DESKTOP.width / 2 - 100) / (512 * 2 ** 5)) * 360, lat: 40 };
    expect(openingCamera([underPanel], DESKTOP.width, DESKTOP.height)).not.toEqual(INITIAL_VIEW);
    // South of the centre by a third of a phone's height: behind the sheet (the lower 40%).
    const underSheet = { lng: -100, lat: 40 - ((PHONE.height / 3) * 360) / (512 * 2 ** 5) };
    expect(openingCamera([underSheet], PHONE.width, PHONE.height)).not.toEqual(INITIAL_VIEW);
    expect(openingCamera([underSheet], DESKTOP.width, DESKTOP.height)).toEqual(INITIAL_VIEW);
  });

  it("has nothing to fit without positions or without room", () => {
    expect(fitCamera([], DESKTOP.width, DESKTOP.height)).toBeNull();
    expect(fitCamera([NEW_YORK], 0, 0)).toBeNull();
  });
});
