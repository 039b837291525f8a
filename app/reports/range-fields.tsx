import { InputField, SelectField } from "../components/form";

/** A report's range as its picker holds it: a preset, or custom days (`YYYY-MM-DD`). */
export interface RangeChoice<P extends string> {
  preset: P | "custom";
  from: string;
  to: string;
}

/**
 * The Range select of a report, and From / To days once "custom" is chosen: the one picker of the
 * Summary, Trips, Stops, Daily and Costs tabs (each with its own presets and field ids).
 */
export function RangeFields<P extends string>({
  idPrefix,
  labels,
  choice,
  update,
}: {
  idPrefix: string;
  labels: Record<P | "custom", string>;
  choice: RangeChoice<P>;
  update: (change: Partial<RangeChoice<P>>) => void;
}) {
  return (
    <>
      <SelectField
        id={`${idPrefix}-range`}
        label="Range"
        value={choice.preset}
        onChange={(e) => update({ preset: e.currentTarget.value as P })}
        options={Object.entries(labels).map(([value, label]) => ({ value, label: label as string }))}
      />
      {choice.preset === "custom" && (
        <>
          <InputField
            id={`${idPrefix}-from`}
            label="From"
            type="date"
            value={choice.from}
            onChange={(e) => update({ from: e.currentTarget.value })}
          />
          <InputField
            id={`${idPrefix}-to`}
            label="To"
            type="date"
            value={choice.to}
            onChange={(e) => update({ to: e.currentTarget.value })}
          />
        </>
      )}
    </>
  );
}
