/**
 * D1 allows at most 100 bound parameters per statement, so a multi-row insert (or an `IN` list) is
 * split into statements of `Math.floor(100 / paramsPerRow)` rows (an insert's still go in one batch).
 */
export const D1_MAX_PARAMS = 100;

export function chunkRows<T>(rows: T[], paramsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / paramsPerRow));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
