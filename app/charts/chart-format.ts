import type { WorkspaceUnits } from "../../shared/units/units";
import { money } from "../maintenance/format";
import { distanceUnit } from "../units/units-text";

/** Dollars as the tables show them ("$1,234.50"); on an axis, short ("$1.2K"). */
export const dollarsText = (dollars: number) => money(Math.round(dollars * 100));
const axisDollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact" });
export const dollarsTick = (dollars: number) => axisDollars.format(dollars);

/** "$0.07/mi" or "$0.04/km", as the cost report's per-distance column. */
export const perDistanceText = (units: WorkspaceUnits) => (dollars: number) =>
  `${dollarsText(dollars)}/${distanceUnit(units)}`;

/** On an axis whose caption names the unit: "$0.25". */
export const centsTick = (dollars: number) => dollarsText(dollars);

/** "24.3 mpg" or "9.7 L/100 km", as the cost report's economy column. */
export const economyText = (units: WorkspaceUnits) => (value: number) =>
  `${value.toFixed(1)} ${units === "metric" ? "L/100 km" : "mpg"}`;

/** On an axis whose caption names the unit: "24.3". */
export const tenthsTick = (value: number) => value.toFixed(1);
