/**
 * The charts' colours (docs/decisions/0080), from Okabe and Ito's palette, told apart by the common
 * colour-vision deficiencies and by lightness in grey. A cost kind keeps its colour on every chart
 * and every page; the kinds work orders will add (labour, parts) have theirs reserved already.
 */
export const KIND_COLOURS = {
  fuel: "#0072B2",
  service: "#E69F00",
  expenses: "#CC79A7",
  labour: "#56B4E9",
  parts: "#8C564B",
} as const;

/** On-time figures: reached on time, late, skipped. */
export const ON_TIME_COLOURS = { onTime: "#009E73", late: "#D55E00", skipped: "#A1A1AA" } as const;

/** A single trend line: cost per mile (or km) and fuel economy. */
export const TREND_COLOURS = { costPerDistance: "#D55E00", economy: "#0072B2" } as const;
