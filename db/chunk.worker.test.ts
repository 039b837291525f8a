import { describe, expect, it } from "vitest";
import { chunkRows, D1_MAX_PARAMS } from "./chunk";

describe("chunkRows", () => {
  it("keeps every row, in order, in statements of at most D1's 100 parameters", () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    for (const paramsPerRow of [1, 7, 16]) {
      const chunks = chunkRows(rows, paramsPerRow);
      expect(chunks.flat()).toEqual(rows);
      for (const chunk of chunks) expect(chunk.length * paramsPerRow).toBeLessThanOrEqual(D1_MAX_PARAMS);
      // As few statements as the limit allows.
      expect(chunks).toHaveLength(Math.ceil(rows.length / Math.floor(D1_MAX_PARAMS / paramsPerRow)));
    }
  });

  it("puts one row per statement when a row alone has more parameters than the limit", () => {
    expect(chunkRows(["a", "b"], 150)).toEqual([["a"], ["b"]]);
  });

  it("makes no statement for no rows", () => {
    expect(chunkRows([], 5)).toEqual([]);
  });
});
