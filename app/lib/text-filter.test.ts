import { describe, expect, it } from "vitest";
import { matchesText } from "./text-filter";

describe("a filter box's match", () => {
  it("finds the trimmed query in any text, ignoring case", () => {
    expect(matchesText(["Van 1", "Ford"], "  FORD ")).toBe(true);
    expect(matchesText(["Van 1", null, undefined, "Ford"], "an 1")).toBe(true);
    expect(matchesText(["Van 1", "Ford"], "ram")).toBe(false);
  });

  it("matches everything for an empty or blank query, and nothing without texts otherwise", () => {
    expect(matchesText([], "")).toBe(true);
    expect(matchesText([null], "   ")).toBe(true);
    expect(matchesText([], "x")).toBe(false);
    expect(matchesText([null, undefined], "x")).toBe(false);
  });
});
