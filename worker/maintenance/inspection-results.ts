import type { InspectionItem, InspectionResult } from "../../shared/maintenance/inspections";
import { badRequest } from "../lib/errors";

/**
 * A submission's results checked against its form: every item it names is on the form, once, and
 * every pass/fail item is answered (a phone form shows them all; a skipped one is a mistake, not
 * a pass). Answers the failed items, in the form's order.
 */
export function checkResults(
  items: InspectionItem[],
  results: InspectionResult[],
): { failed: { item: InspectionItem; result: InspectionResult }[] } {
  const byId = new Map(items.map((i) => [i.id, i]));
  const fields: Record<string, string[]> = {};
  const seen = new Set<string>();
  results.forEach((r, n) => {
    const item = byId.get(r.itemId);
    if (!item) fields[`results.${n}.itemId`] = ["Not an item of this form"];
    else if (seen.has(r.itemId)) fields[`results.${n}.itemId`] = ["Answered twice"];
    else if (item.kind === "pass_fail" && typeof r.pass !== "boolean") fields[`results.${n}.pass`] = ["Pass or fail"];
    seen.add(r.itemId);
  });
  const missing = items.filter((i) => i.kind === "pass_fail" && !seen.has(i.id));
  if (missing.length) fields.results = [`Answer every item: ${missing.map((i) => i.label).join(", ")}`];
  const first = Object.entries(fields)[0];
  if (first) throw badRequest(`${first[0]}: ${first[1][0]}`, fields);
  const failed = items.flatMap((item) => {
    const result = results.find((r) => r.itemId === item.id);
    return result && item.kind === "pass_fail" && result.pass === false ? [{ item, result }] : [];
  });
  return { failed };
}
