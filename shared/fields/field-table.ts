import { z } from "zod";

/**
 * The kit behind an entity's table of plain fields (issue 52 "A field is one edit",
 * docs/decisions/0082 for jobs, 0094 for work orders, 0100 for parts and vendors): a plain field is
 * a value a person gives and the entity keeps as given, with no rule of its own. An entity's table
 * (shared/jobs/job-fields.ts, shared/maintenance/work-order-fields.ts, part-fields.ts,
 * vendor-fields.ts) is one entry per field, built with `textField` or `numberField` (or their
 * required and optional kinds); `fieldTableKit` derives from it everything that lists the fields: the body's and
 * patch's checks, the REST answer's declaration, new values, a patch applied, the synced value's
 * entries, the form's inputs and their text read back. Each table module exports its kit whole
 * (`jobTable`, `workOrderTable`, `partTable`, `vendorTable`: `partTable.inputs`, `partTable.given`),
 * documented once here rather than renamed member by member. What is particular to one entity (a
 * job's CSV columns) stays in its own table module.
 */

/** How a field is asked for in the entity's forms (its "New …" form, and its details where edited later); the input's name is the field's. */
export interface FieldFormInput {
  id: string;
  label: string;
  type?: "text" | "email" | "tel" | "number" | "date" | "textarea" | "select";
  placeholder?: string;
  /** A number input's least value. */
  min?: number;
  /** A text input's longest value (the schema still checks it). */
  maxLength?: number;
  /** The browser asks for it before the form is sent (a required field's schema still checks it). */
  required?: boolean;
  /** A number input's step ("any" for a fraction, "0.01" for money). */
  step?: string;
  /** The field is the input's number times this: a cost kept in cents is typed in dollars (100). */
  scale?: number;
  /** The input a person types first when its form opens (a dialog's first question). */
  autoFocus?: boolean;
  /** A select's choices, in order (a choice field's values and their labels; filled in by the kit). */
  options?: readonly { value: string; label: string }[];
}

export interface FieldFlags<W extends string = string> {
  /** Its key in the synced value: short, as a first sync carries one per entity (ADR 0061); unique in its table. */
  wire: W;
  /** An input of the entity's "New …" form; absent: set over REST and sync only. */
  form?: FieldFormInput;
  /** A value the round-trip tests give it. */
  example: string | number;
  /** The REST answer's description of it, in the OpenAPI document. */
  describe?: string;
}

export type TextSchema = z.ZodType<string | null | undefined, z.ZodTypeDef, unknown>;
export type RequiredTextSchema = z.ZodType<string, z.ZodTypeDef, unknown>;
export type NumberSchema = z.ZodType<number, z.ZodTypeDef, unknown>;
export type OptionalNumberSchema = z.ZodType<number | null | undefined, z.ZodTypeDef, unknown>;
export type TextFieldSpec<W extends string = string> = FieldFlags<W> & {
  kind: "text";
  schema: TextSchema | RequiredTextSchema;
  /** A create must give it, a patch may not clear it: never null (a part's or a vendor's name). */
  required?: true;
};
export type NumberFieldSpec<W extends string = string> = FieldFlags<W> & {
  kind: "number";
  schema: NumberSchema | OptionalNumberSchema;
  /** What an entity not given it has, left off the wire; null: none (or, when `required`, always given). */
  default: number | null;
  integer: boolean;
  required?: true;
};
export type FieldSpec = TextFieldSpec | NumberFieldSpec | ChoiceFieldSpec;

/** A text the entity may lack (null: none). The schema gives undefined to keep, null (or "") to clear. */
export const textField = <S extends TextSchema, W extends string>(schema: S, flags: FieldFlags<W>) => ({
  kind: "text" as const,
  schema,
  ...flags,
});

/** A text every entity has (a name): the create body must give it, a patch may change it, never clear it. */
export const requiredTextField = <S extends RequiredTextSchema, W extends string>(schema: S, flags: FieldFlags<W>) => ({
  kind: "text" as const,
  schema,
  required: true as const,
  ...flags,
});

/** A number every entity has, `default` when not given. */
export const numberField = <W extends string>(
  schema: NumberSchema,
  spec: FieldFlags<W> & { default: number; integer: boolean },
) => ({ kind: "number" as const, schema, ...spec });

/** A number every entity has and the create body must give (a unit cost): no default. */
export const requiredNumberField = <S extends NumberSchema, W extends string>(
  schema: S,
  spec: FieldFlags<W> & { integer: boolean },
) => ({ kind: "number" as const, schema, default: null, required: true as const, ...spec });

/** A number the entity may lack (null: none, as a part with no reorder point). */
export const optionalNumberField = <S extends OptionalNumberSchema, W extends string>(
  schema: S,
  spec: FieldFlags<W> & { integer: boolean },
) => ({ kind: "number" as const, schema, default: null, ...spec });

type Table = Record<string, FieldSpec>;
export type TableKey<T extends Table> = Extract<keyof T, string>;
type ValueOf<S> = S extends { kind: "choice"; values: readonly (infer V)[] }
  ? V
  : S extends { required: true }
    ? S extends { kind: "number" }
      ? number
      : string
    : S extends { kind: "number"; default: number }
      ? number
      : S extends { kind: "number" }
        ? number | null
        : string | null;
type WireOf<S> = S extends { kind: "number" | "choice" } ? number : string;
/** Always on the wire: a required field, but not a choice with a usual value (left off when it has it). */
type RequiredKey<T extends Table> = {
  [K in TableKey<T>]: T[K] extends { required: true } ? (T[K] extends { usual?: undefined } ? K : never) : never;
}[TableKey<T>];

/** The table's fields as the entity keeps, answers and syncs them. */
export type TableValues<T extends Table> = { [K in TableKey<T>]: ValueOf<T[K]> };
/** As the synced value carries them (absent: empty or default; a required field always there). */
export type TableWire<T extends Table> = {
  [K in Exclude<TableKey<T>, RequiredKey<T>> as T[K]["wire"]]?: WireOf<T[K]>;
} & { [K in RequiredKey<T> as T[K]["wire"]]: WireOf<T[K]> };
/** As a body or a patch gives them: any may be left out; null clears a text. */
export type TableInput<T extends Table> = { [K in TableKey<T>]?: ValueOf<T[K]> };
/** A number with a default may be left out; every other field's schema says whether it may. */
type InputSchemas<T extends Table> = {
  [K in TableKey<T>]: T[K] extends { kind: "number"; default: number } ? z.ZodOptional<T[K]["schema"]> : T[K]["schema"];
};

const emptyOf = (spec: FieldSpec) =>
  spec.kind === "number" ? spec.default : spec.kind === "choice" ? (spec.usual ?? null) : null;
const hasDefault = (spec: FieldSpec) => spec.kind === "number" && spec.default !== null;
/**
 * A field's check in a body: a number with a default may be left out (a schema that gives the
 * default itself, `.default(n)`, is kept as it is, so the body's value and OpenAPI say it).
 */
const inputOf = (spec: FieldSpec) =>
  hasDefault(spec) && !spec.schema.isOptional() ? spec.schema.optional() : spec.schema;

/**
 * The answer's schema of one field: a string or a number (whole when `integer`), nullable unless
 * the entity always has it (required, or a number with a default).
 */
function answerOf(spec: FieldSpec) {
  if (spec.kind === "choice") return describedAs(spec, z.enum(spec.values as [string, ...string[]]));
  const value = spec.kind === "text" ? z.string() : spec.integer ? z.number().int() : z.number();
  const answer = spec.required || hasDefault(spec) ? value : value.nullable();
  return describedAs(spec, answer);
}

const describedAs = <Z extends z.ZodTypeAny>(spec: FieldSpec, answer: Z) =>
  spec.describe ? answer.describe(spec.describe) : answer;

/**
 * A number cell or input as a body gives it: a number (a word left as is, for the schema to
 * refuse), an empty one left out (its default, or null); a text cell, empty as null.
 */
function valueFromText(spec: FieldSpec, raw: string | undefined, scale?: number) {
  const cell = raw?.trim() ?? "";
  if (spec.kind === "choice") return cell || undefined;
  if (spec.kind === "text") return cell || null;
  if (cell === "" || Number.isNaN(Number(cell))) return cell === "" ? undefined : cell;
  // a scaled input (dollars) gives the field's whole units (cents)
  return scale === undefined ? Number(cell) : Math.round(Number(cell) * scale);
}

/** Everything derived from one entity's table of plain fields. */
export function fieldTableKit<T extends Table>(table: T) {
  type Key = TableKey<T>;
  type Values = TableValues<T>;
  type Input = TableInput<T>;
  const keys = Object.keys(table) as Key[];
  const specOf = (key: Key) => table[key] as FieldSpec;
  const mapTable = (value: (key: Key, spec: FieldSpec) => unknown) =>
    Object.fromEntries(keys.map((k) => [k, value(k, specOf(k))])) as Values;
  return {
    keys,
    /** The body's and the patch's checks of the table's fields (each may be left out). */
    inputs: Object.fromEntries(keys.map((k) => [k, inputOf(specOf(k))])) as InputSchemas<T>,
    /** The REST answer's description of each field (its declaration, the OpenAPI document). */
    answers: Object.fromEntries(keys.map((k) => [k, answerOf(specOf(k))])) as unknown as {
      [K in Key]: z.ZodType<Values[K]>;
    },
    /** What a field holds when not given: null, or a number's default. */
    emptyOf: (key: Key) => emptyOf(specOf(key)),
    /** A new entity's values: as given, else the default (or null). */
    given: (input: Input): Values => mapTable((k, spec) => input[k] ?? emptyOf(spec)),
    /** A patch applied: undefined keeps a value, null clears it (to the default for a number). */
    patched: (current: Values, patch: Input): Values =>
      mapTable((k, spec) => (patch[k] === undefined ? current[k] : (patch[k] ?? emptyOf(spec)))),
    /** Only the fields a patch names, as they become: what an UPDATE sets. */
    named: (patch: Input): Partial<Values> =>
      Object.fromEntries(
        keys.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k] ?? emptyOf(specOf(k))]),
      ) as Partial<Values>,
    /** The table's fields of a row (or anything that has them), and nothing else. */
    valuesOf: (row: Values): Values => mapTable((k) => row[k]),
    /** Onto the synced value: each under its key, left out when empty or the default. */
    encode(values: Values, wire: TableWire<T>) {
      const out = wire as Record<string, string | number>;
      for (const k of keys) {
        const value = values[k] as string | number | null;
        if (value !== null && value !== emptyOf(specOf(k))) out[specOf(k).wire] = onWire(specOf(k), value);
      }
    },
    decode: (wire: TableWire<T>): Values =>
      mapTable((_k, spec) => offWire(spec, (wire as Record<string, string | number | undefined>)[spec.wire])),
    /** The form's (or a CSV line's) text for each field named in `keys`, as a body gives it. */
    fromText: (cells: Partial<Record<Key, string>>, named: readonly Key[]): Input =>
      Object.fromEntries(named.map((k) => [k, valueFromText(specOf(k), cells[k])])) as Input,
    ...formKit(table),
  };
}

/** What a table's forms need: their inputs, the inputs' text read back, checked input by input, and shown. */
function formKit<T extends Table>(table: T) {
  type Key = TableKey<T>;
  const keys = Object.keys(table) as Key[];
  const specOf = (key: Key) => table[key] as FieldSpec;
  return {
    /** The form's inputs, in the table's order. */
    formFields: keys.flatMap((k) => {
      const form = specOf(k).form;
      return form ? [{ name: k, ...form, ...choicesOf(specOf(k)) }] : [];
    }),
    /** The form's inputs read back as a body gives them, each input's `scale` applied (dollars to cents). */
    fromForm: (read: (name: Key) => string): TableInput<T> =>
      Object.fromEntries(
        keys.flatMap((k) => {
          const form = specOf(k).form;
          return form ? [[k, valueFromText(specOf(k), read(k), form.scale)]] : [];
        }),
      ) as TableInput<T>,
    /** A form checked input by input (conform): each input's check, giving the body's value (cents typed as dollars). */
    formChecks: formChecksOf(table),
    /** What an edit form's inputs show of kept values: a scaled input in its own unit, none as "". */
    formValuesOf: (values: TableValues<T>) => formTextOf(table, values),
  };
}

/**
 * `entries` with `extra` placed right after the entry named `key`: a field written out beside a
 * table's (a part's quantity on hand), kept where it always stood in the body, the answer and the
 * OpenAPI document, whose order a reader sees.
 */
export function placedAfter<A extends object, B extends object>(entries: A, key: keyof A & string, extra: B): A & B {
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(entries)) {
    out[k] = value;
    if (k === key) Object.assign(out, extra);
  }
  return out as A & B;
}

// ------------------------------------------------------------------ forms checked input by input (docs/decisions/0103)

/**
 * A table's form inputs as a form checked input by input checks them (conform,
 * app/components/use-zod-form.ts): each input's text read back as `fromForm` does, then its
 * field's own check, so a message lands on the input it concerns and the value is the body's
 * (cents, not dollars). Only the inputs the table's form asks for have an entry.
 */
function formChecksOf<T extends Table>(table: T) {
  const keys = Object.keys(table) as TableKey<T>[];
  return Object.fromEntries(
    keys.flatMap((k) => {
      const spec = table[k] as FieldSpec;
      if (!spec.form) return [];
      const check = inputOf(spec);
      const scale = spec.form.scale;
      // an empty input of a field every entity has is left out, for its check to say "Required"
      const read = z
        .string()
        .optional()
        .transform((cell) => (spec.required && !cell?.trim() ? undefined : valueFromText(spec, cell, scale)));
      return [[k, read.pipe(check)]];
    }),
  ) as unknown as { [K in TableKey<T>]: z.ZodType<InputSchemas<T>[K]["_output"], z.ZodTypeDef, string | undefined> };
}

/** What each of a table's form inputs shows of kept values: a scaled input in its own unit, none as "". */
function formTextOf<T extends Table>(table: T, values: TableValues<T>) {
  const keys = Object.keys(table) as TableKey<T>[];
  return Object.fromEntries(
    keys.flatMap((k) => {
      const form = (table[k] as FieldSpec).form;
      return form ? [[k, inputValueOf(values[k], form.scale)]] : [];
    }),
  ) as Partial<Record<TableKey<T>, string | number>>;
}

/** A kept value as its form input shows it: none as "", a scaled number in the input's unit (cents as dollars). */
export function inputValueOf(kept: unknown, scale: number | undefined): string | number {
  if (kept === null || kept === undefined) return "";
  return scale ? Number(kept) / scale : (kept as string | number);
}

// ------------------------------------------------------------------ a choice among values (docs/decisions/0103)

/**
 * A value among a fixed list (an expense's or a renewal's kind): kept and answered as the value,
 * synced as its index in the list (a short number), asked for with a select of `labels`. Always
 * given (its schema says whether a body may leave it out).
 */
export type ChoiceFieldSpec<W extends string = string, V extends string = string> = FieldFlags<W> & {
  kind: "choice";
  schema: z.ZodType<V, z.ZodTypeDef, unknown>;
  values: readonly V[];
  labels: Record<V, string>;
  /** What an index the list does not have decodes to (a value added by a newer tab). */
  fallback: V;
  /** The value most have, left off the synced value (absent decodes to it); none: every value is carried. */
  usual?: V;
  required: true;
};

export const choiceField = <V extends string, W extends string, U extends V | undefined = undefined>(
  schema: z.ZodEnum<[V, ...V[]]>,
  spec: FieldFlags<W> & { labels: Record<V, string>; fallback: V; usual?: U },
) => ({ kind: "choice" as const, schema, values: schema.options, required: true as const, ...spec });

/** A field's value as the synced value carries it: a choice as its index, anything else as is. */
function onWire(spec: FieldSpec, value: string | number) {
  return spec.kind === "choice" ? spec.values.indexOf(value as string) : value;
}

/** A field's value from the synced value: absent as its empty value, a choice's index as its value. */
function offWire(spec: FieldSpec, wire: string | number | undefined) {
  if (spec.kind === "choice")
    return wire === undefined && spec.usual !== undefined ? spec.usual : (spec.values[wire as number] ?? spec.fallback);
  return wire ?? emptyOf(spec);
}

/** A choice's select options, from its values and labels; nothing for another kind. */
const choicesOf = (spec: FieldSpec): Pick<FieldFormInput, "options"> =>
  spec.kind === "choice"
    ? { options: spec.values.map((value) => ({ value, label: spec.labels[value] ?? value })) }
    : {};
