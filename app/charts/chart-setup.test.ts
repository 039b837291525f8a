import { afterEach, describe, expect, it, vi } from "vitest";
import { baseOptions } from "./chart-setup";

const motion = (reduce: boolean) =>
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: reduce && query === "(prefers-reduced-motion: reduce)" }));

describe("what every chart shares", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("draws at once, with no animation, for a person who asked for reduced motion", () => {
    motion(true);
    expect(baseOptions().animation).toBe(false);
    motion(false);
    expect(baseOptions().animation).not.toBe(false);
  });

  it("fills its box whatever the screen's width (no fixed aspect ratio to overflow a phone)", () => {
    expect(baseOptions()).toMatchObject({ responsive: true, maintainAspectRatio: false });
  });
});
