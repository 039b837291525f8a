import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build",
      "dist",
      "node_modules",
      ".wrangler",
      "test-results",
      "playwright-report",
      "migrations/meta",
      ".cache",
    ],
  },
  // Every disable says why (`-- reason`), and one that no longer disables anything is an error.
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["scripts/**/*.{js,mjs}", "*.config.{js,ts}"], languageOptions: { globals: globals.node } },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Functions with one job (HELPER-RULES, issue 24): past 60 lines a function (a component, an
    // effect) is doing several things; split it into functions or hooks named for them. Lines are
    // counted as a reader meets them, comments and blank lines included (issue 40).
    files: ["app/**/*.{ts,tsx}", "shared/**/*.ts", "domain/**/*.ts", "worker/**/*.ts", "party/**/*.ts", "db/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 60, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Dependencies run one way (docs/decisions/0026, 0036): shared <- domain <- db <- party <- worker,
    // and the browser (app) on shared alone. shared/ is the vocabulary both sides speak; domain/
    // the fleet's pure rules (fold, motion, places, alerts, rollups), with no runtime under them.
    // The browser never imports server code, the server never UI code; the workspace's object
    // (party) never the HTTP edge (worker), which hosts and calls it.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["**/worker/**", "**/party/**", "**/db/**", "**/domain/**"] }],
    },
  },
  {
    files: ["worker/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**"] }] },
  },
  {
    // Tests of the object may use the Worker's test factories (orders, sessions over HTTP).
    files: ["party/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**", "**/worker/**"] }] },
  },
  {
    files: ["db/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**", "**/worker/**", "**/party/**"] }] },
  },
  {
    // domain/ runs in Node with nothing but itself and shared/ under it: no D1, no object, no edge.
    files: ["domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            "**/app/**",
            "**/worker/**",
            "**/party/**",
            "**/db/**",
            "cloudflare:*",
            "drizzle-orm",
            "drizzle-orm/*",
            "partyserver",
          ],
        },
      ],
    },
  },
  {
    // Its tests may replay the recorded tracks (worker/fleet/fixtures: OsmAnd requests, parsed by
    // the pure worker/fleet/osmand.ts), and nothing else of the Worker.
    files: ["domain/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/app/**", "**/party/**", "**/db/**", "cloudflare:*", "drizzle-orm", "drizzle-orm/*"] },
            {
              regex: "/worker/(?!fleet/fixtures/|fleet/osmand$)",
              message: "domain/ tests use only the recorded tracks of the Worker.",
            },
          ],
        },
      ],
    },
  },
  {
    // shared/ imports nothing of ours but itself: a relative import leaving the folder is refused.
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["../*", "**/app/**", "**/worker/**", "**/party/**", "**/db/**", "**/domain/**"] },
      ],
    },
  },
  {
    // A concept's folder inside shared/ (issue 40: shared/ grouped by what it holds, e.g.
    // shared/overview/) may read the rest of shared/, and still nothing outside it.
    files: ["shared/*/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["../../*", "**/app/**", "**/worker/**", "**/party/**", "**/db/**", "**/domain/**"] },
      ],
    },
  },
);
