import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

// Every repository path the README and the docs name points at a real file or folder (issue 31):
// a renamed or deleted file must take its mentions with it. A path in backquotes or plain text is
// checked when it starts at one of the repository's folders; a markdown link relative to its page.
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const FOLDERS = [
  "app",
  "worker",
  "party",
  "domain",
  "db",
  "shared",
  "scripts",
  "bench",
  "e2e",
  "docs",
  "migrations",
  "config",
  "public",
];
const PATH = new RegExp(`(?<![\\w./-])(?:${FOLDERS.join("|")})/[\\w.$\\-/]*`, "g");
// A path in backquotes that climbs out of its page's folder is read from that folder (README's
// `../shared/DESIGN.md` is the design card beside the repository; from docs/decisions it is not).
const CLIMBING = /`(\.\.\/[^`\s]+)`/g;
const LINK = /\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#[^)]*)?\)/g;

/**
 * Named on purpose though not in the repository: files made at build time, and files an ADR's
 * history records as removed (each with why).
 */
const NOT_FILES = new Set<string>([
  "public/glyphs", // written by scripts/map-glyphs.mjs at build time (ADR 0025)
  "worker/fleet/ingest.ts", // the D1 ingestion path of ADRs 0007 and 0009, replaced by the object (0016)
  "worker/api/openapi-operations.ts", // ADR 0029's OpenAPI registry, replaced by route declarations (0056)
  "worker/alerts/beacon-alerts.ts", // ADR 0024's cron raising of silence alerts, moved into the object (0059)
  "scripts/map-preloads.ts", // ADR 0063's Link header for mapbox-gl, dropped when the map's first draw became a sketch (0068)
  "party/alarm/run-jobs.ts", // ADR 0059's first runner of the alarm's tasks, a copy of party/alarm/room-alarm.ts's rule, removed
  "migrations/0042_job_purchase_order_number.sql", // on the branch onefield-po only: the recorded run of the recipe in docs/add-a-field.md
  "migrations/0053_work_order_invoice_number.sql", // on the branch wo-fields-po only: the work order recipe's recorded run, same doc
  "migrations/0054_vendor_tax_number.sql", // on the branch pv-fields-proof only: the part and vendor recipe's recorded run, same doc
  "migrations/0056_expense_receipt_number.sql", // on the branch ft-costs-proof only: the expense and renewal recipe's recorded run, same doc
  "migrations/0057_service_entry_invoice_number.sql", // on the branch ft-maint-proof only: the service entry recipe's recorded run, same doc
  "migrations/0058_place_note.sql", // on the branch ft-places-proof only: the place recipe's recorded run, same doc
  "migrations/0059_vehicle_plate.sql", // on the branch ft-places-proof only: the vehicle recipe's recorded run, same doc
  "migrations/0056_issue_reference.sql", // on the branch ft-issues-proof only: the issue recipe's recorded run, same doc
  "migrations/meta/0056_snapshot.json", // on the branch ft-issues-proof only: the issue recipe's generated snapshot, same doc
  "db/workspace-version.ts", // the version helpers before ADR 0081, now private to db/writer.ts
  "shared/overview/odometer.ts", // ADR 0051's miles from odometer readings, replaced by the cost report's own figures (0078)
]);

/** A named path worth checking: a file (its last part has an extension), a folder (written with its
 * slash), or a numbered ADR or migration (docs/decisions/0016: some file starts so). */
function exists(path: string): boolean {
  const last = path.slice(path.lastIndexOf("/") + 1);
  if (/^\d{4}$/.test(last)) return readdirSync(join(root, dirname(path))).some((f) => f.startsWith(last));
  return existsSync(join(root, path));
}

function docs(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
    );
  return ["README.md", ...walk("docs")];
}

function missingIn(doc: string): string[] {
  const text = readFileSync(join(root, doc), "utf8");
  const named = [...text.matchAll(PATH)]
    .map((m) => m[0].replace(/[.,:;)]+$/, ""))
    // a word after a folder ("shared/default accounts") is prose, not a path
    .filter((path) => path.endsWith("/") || /\.\w+$/.test(path) || /\/\d{4}$/.test(path))
    .map((path) => path.replace(/\/$/, ""));
  const linked = [...text.matchAll(LINK), ...text.matchAll(CLIMBING)].map((m) => normalize(join(dirname(doc), m[1]!)));
  return [...new Set([...named, ...linked])].filter(
    (path) => !/[*{}]/.test(path) && !NOT_FILES.has(path) && !exists(path),
  );
}

describe("paths named in the docs", () => {
  it.each(docs())("%s names only files that exist", (doc) => {
    expect(missingIn(doc)).toEqual([]);
  });
});
