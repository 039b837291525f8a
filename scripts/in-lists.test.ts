import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

// D1 (and a Durable Object's SQLite) refuses a statement with more than 100 bound values, so an
// `IN` list as long as the caller's input or the data makes a 500 (issue 39, finding 5: an
// inspection naming 110 photos). Every `inArray(column, list)` in the Worker's sources takes one
// of: a chunk of `inLists(...)` or `chunkRows(...)` (db/chunk.ts), a literal list of constants,
// or a subquery (`db.select(...)`: no bound values per row). A list that is bounded some other
// way says so in a comment starting `// in-list:` on one of the five lines above the call.
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const CALL = /\b(?:not)?inArray\(/g;
const CONSTANTS = /^\[\s*("[^"]*"|'[^']*'|\d+)(\s*,\s*("[^"]*"|'[^']*'|\d+))*\s*,?\s*\]$/;
/** `for (const part of inLists(ids))` (or db/chunk.ts's chunkRows), and `chunkRows(ids, n).flatMap((part) =>`. */
const CHUNK_LOOP = /for \(const (\w+) of (?:inLists|chunkRows)\(/g;
const CHUNK_CALLBACK = /(?:inLists|chunkRows)\(.*?\)\.(?:flatMap|map)\(\((\w+)\)/g;
const SUBQUERY = /^\w+\s*\.\s*select\(/;
/** `const vehiclesOf = (ids: string[]) => db.select(...)`: a helper that makes a subquery. */
const SUBQUERY_HELPER = /const (\w+) = \([^)]*\) =>\s*\w+\s*\.select\(/g;

/** The call's second argument, as written (from the top-level comma to the call's close). */
function listArgument(source: string, open: number): string {
  let depth = 0;
  let start = -1;
  for (let i = open; i < source.length; i++) {
    const ch = source[i]!;
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) {
      depth--;
      if (depth === 0) return source.slice(start, i).trim();
    } else if (ch === "," && depth === 1) {
      if (start === -1) start = i + 1;
      else return source.slice(start, i).trim();
    }
  }
  return "";
}

function unchunkedIn(file: string): string[] {
  const source = readFileSync(join(root, file), "utf8");
  const chunkNames = new Set([...source.matchAll(CHUNK_LOOP), ...source.matchAll(CHUNK_CALLBACK)].map((m) => m[1]!));
  const subqueries = new Set([...source.matchAll(SUBQUERY_HELPER)].map((m) => m[1]!));
  const lines = source.split("\n");
  return [...source.matchAll(CALL)].flatMap((match) => {
    const list = listArgument(source, match.index + match[0].length - 1);
    const line = source.slice(0, match.index).split("\n").length;
    if (/^\s*(\*|\/\/)/.test(lines[line - 1]!)) return []; // a comment's example
    if (chunkNames.has(list) || CONSTANTS.test(list) || SUBQUERY.test(list)) return [];
    if (subqueries.has(list.split("(")[0]!)) return [];
    if (lines.slice(Math.max(0, line - 6), line).some((l) => l.includes("// in-list:"))) return [];
    return [`${file}:${line} inArray(…, ${list})`];
  });
}

it("every SQL IN list of the Worker's sources is chunked, constant, a subquery, or says why it is bounded", () => {
  const files = execFileSync("git", ["ls-files", "worker", "db", "party", "domain"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.ts$/.test(file));
  expect(files.flatMap(unchunkedIn)).toEqual([]);
});

it("finds an unchunked list (the check itself works)", () => {
  const source = "db.select().from(photos).where(inArray(photos.id, ids))";
  expect(listArgument(source, source.indexOf("inArray(") + 7)).toBe("ids");
  expect(CONSTANTS.test('["owner", "admin"]')).toBe(true);
  expect(SUBQUERY.test("db.select({ id: issues.id }).from(issues)")).toBe(true);
});
