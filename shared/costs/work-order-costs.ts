/**
 * A work order's money, defined once (docs/figures.md, docs/decisions/0078): labour is the sum of its
 * labour lines (hours × rate), parts the sum of its part lines (quantity × unit cost), each line
 * rounded to whole cents; the total adds the order's tax. The API's answer, the browser's page, the
 * offline completion and the service entry a completion records all take these figures from here,
 * and the cost report's `laborCostCents` and `partsCostCents` are the recorded entries' sums of them.
 */
export interface CostedLine {
  kind: "labor" | "part";
  quantity: number;
  unitCostCents: number;
}

export interface WorkOrderTotals {
  laborCents: number;
  partsCents: number;
  taxCents: number;
  totalCents: number;
}

/** One line's cost in whole cents (a quarter hour at $95.50 is 2388 cents, not 2387.5). */
export const lineCents = (line: Pick<CostedLine, "quantity" | "unitCostCents">) =>
  Math.round(line.quantity * line.unitCostCents);

export function workOrderTotals(lines: readonly CostedLine[], taxCents: number): WorkOrderTotals {
  let laborCents = 0;
  let partsCents = 0;
  for (const line of lines) {
    if (line.kind === "labor") laborCents += lineCents(line);
    else partsCents += lineCents(line);
  }
  return { laborCents, partsCents, taxCents, totalCents: laborCents + partsCents + taxCents };
}
