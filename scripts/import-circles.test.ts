import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, it } from "vitest";

// No module imports itself back, directly or through others (issue 40): a circle means neither
// file can be read, tested or moved without the other, and type-only imports count, since a reader
// follows them too. The fix is a third file holding what both need (worker/sync/add-rows.ts,
// worker/auth/session-info.ts, domain/reports/day-figures.ts).
const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const FOLDERS = ["app", "worker", "party", "domain", "db", "shared"];
const IMPORT = /(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gs;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|\.d\.ts$/.test(e.name) ? [path] : [];
  });
}

function resolved(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((p) => existsSync(p) && statSync(p).isFile());
}

/** The strongly connected groups of more than one file (Tarjan's algorithm): each is a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do group.push((member = stack.pop()!));
    while (member !== file);
    if (group.length > 1) found.push(group.map((f) => relative(root, f)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

it("no source file imports itself back through others", () => {
  const files = FOLDERS.flatMap((folder) => sources(join(root, folder)));
  const graph = new Map(
    files.map((file) => {
      const text = readFileSync(file, "utf8");
      const imports = [...text.matchAll(IMPORT)].map((m) => resolved(file, m[1]!));
      return [file, imports.filter((to): to is string => to !== undefined)];
    }),
  );
  expect(graph.size).toBeGreaterThan(100);
  expect(circles(graph)).toEqual([]);
});
