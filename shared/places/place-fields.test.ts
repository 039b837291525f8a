import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import type { FieldSpec } from "../fields/field-table";
import { PLACE_FIELD_TABLE, placeTable } from "./place-fields";
import { placeMutators as m } from "./places-mutators";
import {
  createPlaceArgs,
  decodePlace,
  encodePlace,
  placeBodySchema,
  placeKey,
  placePatchSchema,
  updatePlaceArgs,
  type PlaceWire,
} from "./places";

/**
 * The place table (docs/decisions/0105) reaches every place its fields are listed: the body, the
 * patch and the mutators' arguments check each field; a new place keeps it, a patch changes, keeps
 * or (unless it is required) clears it; the synced value carries it under its own key beside the
 * geometry's `g` and reads the values a tab synced before the table; the row's inputs list it and
 * read it back as the mutator takes it.
 */
const table: Record<string, FieldSpec> = PLACE_FIELD_TABLE;
const keys: readonly string[] = placeTable.keys;
const circle = { type: "Circle" as const, center: [-87.63, 41.88] as [number, number], radius: 150 };
const examples = Object.fromEntries(keys.map((k) => [k, table[k]!.example]));
const required = keys.filter((k) => table[k]!.required);
const optional = keys.filter((k) => !table[k]!.required);
const nulls = Object.fromEntries(optional.map((k) => [k, null]));
const base = { ...Object.fromEntries(required.map((k) => [k, examples[k]])), geometry: circle };
const other = (k: string) => (typeof examples[k] === "number" ? Number(examples[k]) + 1 : `${examples[k]} 2`);

/** Replicache's transaction over a Map: what the mutators read and write. */
function store() {
  const { map, tx } = memoryTransaction();
  const read = (id: string) => decodePlace(id, map.get(placeKey(id)) as PlaceWire);
  return { tx, map, read };
}

describe("the place table", () => {
  it("is checked by the body, the patch and the sync mutators' arguments, each keeping its value", () => {
    expect(placeBodySchema.parse({ ...examples, geometry: circle })).toEqual({ ...examples, geometry: circle });
    expect(placePatchSchema.parse(examples)).toEqual(examples);
    expect(createPlaceArgs.parse({ id: "p", ...examples, geometry: circle })).toMatchObject(examples);
    expect(updatePlaceArgs.parse({ id: "p", ...examples })).toEqual({ id: "p", ...examples });
    for (const k of keys) expect(placePatchSchema.safeParse({ [k]: {} }).success, k).toBe(false);
    for (const k of required) expect(placeBodySchema.safeParse({ ...base, [k]: undefined }).success, k).toBe(false);
    for (const k of required) expect(placePatchSchema.safeParse({ [k]: null }).success, k).toBe(false);
    expect(placePatchSchema.parse({})).toEqual({});
    expect(placePatchSchema.parse(nulls)).toEqual(nulls);
  });

  it("keeps the messages people read: a name is required, at most 80 characters, trimmed", () => {
    const issues = (input: unknown) => placeBodySchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(issues({ geometry: circle })).toEqual(["Required"]);
    expect(issues({ name: "  ", geometry: circle })).toEqual(["Required"]);
    expect(issues({ name: "x".repeat(81), geometry: circle })).toEqual(["Use at most 80 characters"]);
    expect(placeBodySchema.parse({ name: " Yard ", geometry: circle }).name).toBe("Yard");
  });

  it("keeps what the mutators give, changes only what a patch names, and clears with null", async () => {
    const { tx, read } = store();
    await m.createPlace(tx, { id: "p", ...examples, geometry: circle } as never);
    expect(read("p")).toEqual({ id: "p", ...examples, geometry: circle });
    const bigger = { ...circle, radius: 300 };
    await m.updatePlace(tx, { id: "p", geometry: bigger });
    expect(read("p")).toEqual({ id: "p", ...examples, geometry: bigger });
    await m.updatePlace(tx, { id: "p", [required[0]!]: other(required[0]!) });
    expect(read("p")).toEqual({ id: "p", ...examples, [required[0]!]: other(required[0]!), geometry: bigger });
    await m.updatePlace(tx, { id: "p", ...nulls });
    expect(read("p")).toMatchObject({ ...nulls, geometry: bigger });
    await m.createPlace(tx, { id: "plain", ...base } as never);
    expect(read("plain")).toEqual({ id: "plain", ...base, ...nulls });
  });

  it("travels in the synced value under its own short key beside the geometry's, left out when empty", () => {
    const wires = keys.map((k) => table[k]!.wire);
    expect(new Set([...wires, "g"]).size).toBe(wires.length + 1);
    const plain = encodePlace({ ...base, ...nulls } as never);
    expect(Object.keys(plain).sort()).toEqual([...required.map((k) => table[k]!.wire), "g"].sort());
    expect(encodePlace({ ...examples, geometry: circle } as never)).toEqual({
      ...Object.fromEntries(keys.map((k) => [table[k]!.wire, examples[k]])),
      g: circle,
    });
  });

  it("reads and writes the synced value as a tab from before the table does (same keys)", () => {
    const yesterdays = { n: "Depot", g: circle } satisfies PlaceWire;
    const decoded = decodePlace("p", yesterdays);
    // a field added since is empty, the tab's value kept as it was
    expect(decoded).toEqual({ id: "p", ...nulls, name: "Depot", geometry: circle });
    const { id: _id, ...values } = decoded;
    expect(encodePlace(values)).toEqual(yesterdays);
  });

  it("lists its row's inputs in its order, read back from their text as the mutator takes them", () => {
    expect(placeTable.formFields.map((f) => f.name)).toEqual(keys.filter((k) => table[k]!.form));
    expect(placeTable.formFields.find((f) => f.name === "name")?.label).toBe("Place name");
    const names = placeTable.formFields.map((f) => f.name);
    const typed = Object.fromEntries(names.map((k) => [k, ` ${examples[k]} `]));
    expect(placeTable.fromText(typed, names)).toEqual(Object.fromEntries(names.map((k) => [k, examples[k]])));
    const blank = placeTable.fromText(Object.fromEntries(names.map((k) => [k, " "])), names);
    for (const k of names) expect(blank[k as keyof typeof blank] ?? null).toBeNull();
  });
});
