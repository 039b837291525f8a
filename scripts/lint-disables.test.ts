import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

// An eslint-disable switches a rule off for a reason the next reader needs (issue 31): each one
// says why after ` -- `, as eslint's own description syntax has it. Generated files are exempt.
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const GENERATED = new Set(["worker/worker-configuration.d.ts"]);
/** A directive comment: a line or next-line disable, or a block disable, as eslint reads them. */
const DIRECTIVE = /(\/\/|\/\*)\s*eslint-disable/;
/** ...with its reason: the rules, then ` -- ` and words. */
const WITH_REASON = /eslint-disable[\w-]*\s+[\w@/-]+(,\s*[\w@/-]+)*\s+--\s+\S/;

it("every eslint-disable in the sources gives its reason", () => {
  const files = execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.js", "*.mjs"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  const bare = files
    .filter((file) => !GENERATED.has(file))
    .flatMap((file) =>
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
        .filter(({ line }) => DIRECTIVE.test(line) && !WITH_REASON.test(line)),
    )
    .map(({ where }) => where);
  expect(bare).toEqual([]);
});
