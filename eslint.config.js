import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build", "dist", "node_modules", ".wrangler", "test-results", "playwright-report", "migrations/meta", ".cache"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["scripts/**/*.{js,mjs}", "*.config.{js,ts}"], languageOptions: { globals: globals.node } },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Functions with one job (HELPER-RULES, issue 24): past 60 lines of code a function (a
    // component, an effect) is doing several things; split it into functions or hooks named for them.
    files: ["app/**/*.{ts,tsx}", "shared/**/*.ts", "worker/**/*.ts", "party/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Dependencies run one way: the browser never imports Worker code, the Worker never UI code.
    files: ["app/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/worker/**", "**/party/**"] }] },
  },
  {
    files: ["worker/**/*.ts", "party/**/*.ts", "shared/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**"] }] },
  },
  {
    files: ["shared/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**", "**/worker/**", "**/party/**"] }] },
  },
);
