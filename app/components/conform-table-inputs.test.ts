import { describe, expect, it } from "vitest";
import { scaledToStored } from "./conform-table-inputs";

describe("scaledToStored", () => {
  const fields = [
    { name: "costCents", id: "cost", label: "Cost ($)", type: "number" as const, scale: 100 },
    { name: "vendor", id: "vendor", label: "Vendor" },
  ];

  it("gives a scaled field in its own units, rounded (dollars to whole cents), and leaves the others", () => {
    expect(scaledToStored(fields, { costCents: 249.9, vendor: "Shop", date: "2026-11-02" })).toEqual({
      costCents: 24_990,
      vendor: "Shop",
      date: "2026-11-02",
    });
  });

  it("leaves a scaled field that was not given as it was (none)", () => {
    expect(scaledToStored(fields, { costCents: null })).toEqual({ costCents: null });
    expect(scaledToStored(fields, {})).toEqual({});
  });
});
