import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

const ORIGIN = "https://fleet.example.com";

describe("safeRedirect", () => {
  it.each(["/map", "/vehicles/abc?tab=trips#top", "/settings"])("keeps the same-origin path %s", (path) => {
    expect(safeRedirect(path, ORIGIN)).toBe(path);
  });

  it.each([
    "//evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "https://evil.com/map",
    "javascript:alert(1)",
    "http://fleet.example.com/map",
    "https://fleet.example.com.evil.com/",
  ])("refuses %s", (value) => {
    expect(safeRedirect(value, ORIGIN)).toBe("/");
  });

  it("answers / for nothing", () => {
    expect(safeRedirect(null, ORIGIN)).toBe("/");
    expect(safeRedirect("", ORIGIN)).toBe("/");
  });

  it("normalises a full same-origin address to its path", () => {
    expect(safeRedirect("https://fleet.example.com/map?x=1", ORIGIN)).toBe("/map?x=1");
  });
});
