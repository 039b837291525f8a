import type { ZodError } from "zod";
import { JOB_CSV_HEADER, MAX_JOBS_PER_IMPORT, jobBodySchema, type JobInput } from "../../shared/jobs/jobs";
import { JOB_TABLE_CSV_COLUMNS, type JobTableKey, jobTable } from "../../shared/jobs/job-fields";

/**
 * The jobs CSV (DESIGN.md "Jobs and routes", `POST /api/jobs/import`): the header line
 * `title,latitude,longitude,address,date,windowStart,windowEnd,vehicleName` (then the columns of
 * the fields shared/jobs/job-fields.ts flags `csv`), then one job a line.
 * RFC 4180 quoting ("a, b" and "" inside quotes); a record's line is the file line it starts on,
 * the header being line 1, so an error names the line a spreadsheet shows. Pure: the Worker
 * resolves vehicle names and geocodes addresses (worker/jobs/job-import.ts).
 */

export type CsvColumn =
  "title" | "latitude" | "longitude" | "address" | "date" | "windowStart" | "windowEnd" | "vehicleName" | JobTableKey;
/** The header's columns; a file may leave out the table's (a field added later), and their cells. */
export const CSV_COLUMNS = JOB_CSV_HEADER.split(",") as readonly CsvColumn[];
const FIXED_COLUMNS = CSV_COLUMNS.slice(0, CSV_COLUMNS.length - JOB_TABLE_CSV_COLUMNS.length);

export interface CsvRecord {
  line: number;
  cells: string[];
}
export interface LineError {
  line: number;
  error: string;
}

/** The records of a CSV text, each with the line it starts on; blank lines are skipped. */
export function csvRecords(text: string): CsvRecord[] | LineError {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") records.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === "") {
      quoted = true;
      cell = "";
    } else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      start = ++line;
    } else cell += ch;
  }
  if (quoted) return { line: start, error: "A quoted cell is not closed" };
  if (cell !== "" || cells.length) endRecord();
  return records;
}

/** A line's cells by column name, trimmed; empty cells are absent. */
export type CsvValues = Partial<Record<CsvColumn, string>>;

/**
 * A header's columns: the fixed ones in order, then any of the table's (shared/jobs/job-fields.ts),
 * each once, so a file written before a field was added still imports; or null.
 */
function headerColumns(cells: string[]): CsvColumn[] | null {
  const names = cells.map((c) => c.trim());
  const extra = names.slice(FIXED_COLUMNS.length);
  const fixed = FIXED_COLUMNS.every((name, i) => names[i] === name);
  const known = extra.every(
    (name, i) => JOB_TABLE_CSV_COLUMNS.includes(name as JobTableKey) && extra.indexOf(name) === i,
  );
  return fixed && known ? (names as CsvColumn[]) : null;
}

/** A line's cells by column name; too few (under the fixed columns) or more than the header names is an error. */
function lineValues(line: number, cells: string[], columns: CsvColumn[]): CsvValues | LineError {
  if (cells.length < FIXED_COLUMNS.length)
    return { line, error: `Expected ${FIXED_COLUMNS.length} cells, found ${cells.length}` };
  if (cells.length > columns.length) return { line, error: `Expected ${columns.length} cells, found ${cells.length}` };
  const values: CsvValues = {};
  columns.forEach((name, i) => {
    const v = cells[i]?.trim();
    if (v) values[name] = v;
  });
  return values;
}

/** Checks the header and the number of lines, and names each line's cells. */
export function csvLines(text: string): { line: number; values: CsvValues }[] | LineError[] {
  const records = csvRecords(text.replace(/^\uFEFF/, ""));
  if (!Array.isArray(records)) return [records];
  const [header, ...rows] = records;
  const columns = header && header.line === 1 ? headerColumns(header.cells) : null;
  if (!columns) return [{ line: 1, error: `The first line must be the header ${JOB_CSV_HEADER}` }];
  if (rows.length === 0) return [{ line: 2, error: "No jobs after the header" }];
  if (rows.length > MAX_JOBS_PER_IMPORT)
    return [{ line: rows[MAX_JOBS_PER_IMPORT]!.line, error: `At most ${MAX_JOBS_PER_IMPORT} jobs in one import` }];
  const lines = rows.map(({ line, cells }) => ({ line, values: lineValues(line, cells, columns) }));
  const errors = lines.flatMap(({ values }) => ("error" in values ? [values as LineError] : []));
  return errors.length ? errors : (lines as { line: number; values: CsvValues }[]);
}

const firstProblem = (error: ZodError) => {
  const issue = error.issues[0]!;
  const field = issue.path.filter((p) => p !== "location").join(".") || String(issue.path[0] ?? "line");
  return `${field}: ${issue.message}`;
};

const numberCell = (v: string | undefined) => (v === undefined ? undefined : Number.isNaN(Number(v)) ? v : Number(v));

/**
 * One line as a job's body, checked by the REST schema (so the messages match `POST /api/jobs`):
 * `vehicleId` is the vehicle the name resolved to. An address alone is kept for the geocoder.
 */
export function csvJob(values: CsvValues, vehicleId: string | null): JobInput | string {
  const location: Record<string, unknown> = {};
  if (values.latitude !== undefined) location.latitude = numberCell(values.latitude);
  if (values.longitude !== undefined) location.longitude = numberCell(values.longitude);
  if (values.address !== undefined) location.address = values.address;
  const parsed = jobBodySchema.safeParse({
    title: values.title ?? "",
    date: values.date ?? "",
    vehicleId,
    location,
    windowStart: values.windowStart ?? null,
    windowEnd: values.windowEnd ?? null,
    ...jobTable.fromText(values, JOB_TABLE_CSV_COLUMNS),
  });
  return parsed.success ? parsed.data : firstProblem(parsed.error);
}
