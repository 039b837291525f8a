/**
 * A rule kept as a TypeScript table, written out as SQL (issue 52: no business rule restated in SQL
 * by hand). The keys and values come from the program's own constants, never from input; quotes are
 * doubled all the same.
 */
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** `CASE expression WHEN 'key' THEN value … END` over every entry of `table` (NULL for any other value). */
export function sqlCase(expression: string, table: Readonly<Record<string, number>>): string {
  const whens = Object.entries(table).map(([key, value]) => `WHEN ${quote(key)} THEN ${Number(value)}`);
  return `CASE ${expression} ${whens.join(" ")} END`;
}

/** `('a', 'b')`: a set of text values for `IN`. */
export const sqlList = (values: Iterable<string>) => `(${[...values].map(quote).join(", ")})`;
