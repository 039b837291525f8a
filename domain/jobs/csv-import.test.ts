import { describe, expect, it } from "vitest";
import { JOB_CSV_HEADER } from "../../shared/jobs/jobs";
import { csvJob, csvLines, csvRecords } from "./csv-import";

describe("the jobs CSV", () => {
  it("reads quoted cells, doubled quotes, CRLF and a quoted line break, naming each record's first line", () => {
    const text = 'a,b\r\n"x, y","say ""hi"""\n\n"two\nlines",z\n';
    expect(csvRecords(text)).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["x, y", 'say "hi"'] },
      { line: 4, cells: ["two\nlines", "z"] },
    ]);
    expect(csvRecords('a,"open\n')).toEqual({ line: 1, error: "A quoted cell is not closed" });
  });

  it("wants the header as line 1 and as many cells as it names", () => {
    expect(csvLines("title,lat\nA,1")).toEqual([{ line: 1, error: expect.stringContaining(JOB_CSV_HEADER) }]);
    expect(csvLines(`\n${JOB_CSV_HEADER}\nA,1,2,,2026-11-30,,,`)).toEqual([
      { line: 1, error: expect.stringContaining("header") },
    ]);
    expect(csvLines(JOB_CSV_HEADER)).toEqual([{ line: 2, error: "No jobs after the header" }]);
    expect(csvLines(`\uFEFF${JOB_CSV_HEADER}\nA,1,2\nB,1,2,,2026-11-30,,,Van`)).toEqual([
      { line: 2, error: "Expected 8 cells, found 3" },
    ]);
    expect(csvLines(`${JOB_CSV_HEADER}\nB, 41.5 ,-87,,2026-11-30,,,Van 2`)).toEqual([
      { line: 2, values: { title: "B", latitude: "41.5", longitude: "-87", date: "2026-11-30", vehicleName: "Van 2" } },
    ]);
  });

  it("checks a line with the REST schema, so its error names the field as POST /api/jobs does", () => {
    const ok = csvJob(
      { title: "A", latitude: "41.5", longitude: "-87.1", date: "2026-11-30", windowStart: "09:00" },
      "v1",
    );
    expect(ok).toMatchObject({
      title: "A",
      vehicleId: "v1",
      location: { latitude: 41.5, longitude: -87.1 },
      windowStart: "09:00",
    });
    expect(csvJob({ title: "A", address: "1 Main St", date: "2026-11-30" }, null)).toMatchObject({
      location: { address: "1 Main St" },
    });
    expect(csvJob({ title: "A", latitude: "north", longitude: "1", date: "2026-11-30" }, null)).toBe(
      "latitude: Enter a latitude",
    );
    expect(csvJob({ title: "A", latitude: "1", date: "2026-11-30" }, null)).toBe(
      "longitude: Give both latitude and longitude",
    );
    expect(csvJob({ title: "A", date: "2026-11-30" }, null)).toBe("latitude: Give a point or an address");
    expect(csvJob({ latitude: "1", longitude: "1", date: "2026-11-30" }, null)).toBe("title: Required");
    expect(csvJob({ title: "A", latitude: "1", longitude: "1", date: "30/11/2026" }, null)).toMatch(/^date: /);
    expect(
      csvJob(
        { title: "A", latitude: "1", longitude: "1", date: "2026-11-30", windowStart: "11:00", windowEnd: "10:00" },
        null,
      ),
    ).toBe("windowEnd: Ends after it starts");
  });
});
