import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { shellFor, shellsFromRouteFiles } from "./shells";

const routeFiles = readdirSync(new URL("../routes", import.meta.url));
const shells = shellsFromRouteFiles(routeFiles);

describe("page shells for the service worker", () => {
  it("lists one shell per page pattern, fetched at a sample address of that pattern", () => {
    const patterns = shells.map((s) => s.pattern);
    expect(patterns).toContain("/");
    expect(patterns).toContain("/map");
    expect(patterns).toContain("/login");
    expect(patterns).toContain("/issues/:issueId");
    expect(patterns.filter((p) => p === "/vehicles/:vehicleId")).toHaveLength(1);
    expect(shells.find((s) => s.pattern === "/vehicles/:vehicleId/overview")?.url).toBe("/vehicles/0/overview");
  });

  it("never lists pages a server loader decides or one-time links", () => {
    const patterns = shells.map((s) => s.pattern);
    for (const online of ["/oauth/:provider", "/share/:token", "/invite/:token"])
      expect(patterns).not.toContain(online);
    expect(patterns.some((p) => p.includes("*") || p.includes("$"))).toBe(false);
  });

  it("answers an address with the shell of the route that matches it, static segments first", () => {
    expect(shellFor("/vehicles/v_123/service", shells)?.url).toBe("/vehicles/0/service");
    expect(shellFor("/vehicles/v_123", shells)?.url).toBe("/vehicles/0");
    expect(shellFor("/vehicles", shells)?.url).toBe("/vehicles");
    expect(shellFor("/issues/", shells)?.url).toBe("/issues");
    expect(shellFor("/inspections", shells)?.url).toBe("/inspections");
  });

  it("leaves addresses no page has to the network", () => {
    expect(shellFor("/nowhere", shells)).toBeNull();
    expect(shellFor("/share/abc", shells)).toBeNull();
    expect(shellFor("/vehicles/a/b/c", shells)).toBeNull();
  });
});
