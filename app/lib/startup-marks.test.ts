import { describe, expect, it } from "vitest";
import { markStartup } from "./startup-marks";

const appMarks = () => performance.getEntriesByType("mark").filter((m) => m.name.startsWith("app: "));

describe("startup marks (what PHONE_TRACE=1 prints between a load's requests)", () => {
  it("marks each step once, under its name, at the first time it happens", () => {
    markStartup("session checked");
    const first = appMarks().find((m) => m.name === "app: session checked")!.startTime;
    markStartup("session checked");
    markStartup("startup gate open");
    expect(appMarks().map((m) => m.name)).toEqual(["app: session checked", "app: startup gate open"]);
    expect(appMarks()[0]!.startTime).toBe(first);
  });
});
