/**
 * CSV per RFC 4180: one header row, CRLF line ends, a field quoted when it holds a comma, a
 * quote, CR or LF (quotes doubled). Twelve lines, so no library: the tests pin the rules.
 * A text cell starting with =, +, -, @ (or a tab/CR) is prefixed with an apostrophe, so a
 * vehicle named "=HYPERLINK(...)" is shown, not run, by a spreadsheet (OWASP's CSV injection
 * advice); numbers are written as numbers.
 */
export function toCsv<Row extends object>(columns: readonly (keyof Row & string)[], rows: readonly Row[]): string {
  const lines = [columns.map(field).join(",")];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

function field(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
