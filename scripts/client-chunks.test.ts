import type { ManualChunkMeta } from "rollup";
import { describe, expect, it } from "vitest";
import { clientChunks } from "./client-chunks";

/** A module graph as Rollup shows it to manualChunks: each module's static imports. */
function graph(imports: Record<string, string[]>): ManualChunkMeta {
  return {
    getModuleIds: () => Object.keys(imports)[Symbol.iterator](),
    getModuleInfo: (id: string) => (id in imports ? { importedIds: imports[id] } : null),
  } as unknown as ManualChunkMeta;
}

const root = "/p/app/root.tsx";
const layout = "/p/app/routes/_app.tsx";
const actions = "/p/app/routes/_app.actions.tsx";
const login = "/p/app/routes/login.tsx";
const react = "/p/node_modules/react/index.js";
const remix = "/p/node_modules/@remix-run/react/dist/esm/index.js";
const session = "/p/app/session/session.tsx";
const zod = "/p/node_modules/zod/index.js";
const menu = "/p/app/components/menu.tsx";
const form = "/p/app/components/form.tsx";
const actionsList = "/p/app/maintenance/use-my-actions.ts";

const chunksOf = (modules: Record<string, string[]>) => {
  const chunkFor = clientChunks();
  const meta = graph(modules);
  return Object.fromEntries(Object.keys(modules).map((id) => [id, chunkFor(id, meta) ?? null]));
};

describe("the browser build's shared chunks (docs/decisions/0054)", () => {
  const chunks = chunksOf({
    [root]: [react, remix, session],
    [session]: [zod, react],
    [layout]: [react, menu, form, session],
    [actions]: [actionsList, react],
    [login]: [form, session, react],
    [react]: [],
    [remix]: [react],
    [zod]: [],
    [menu]: [react],
    [form]: [react],
    [actionsList]: [],
    "\0commonjsHelpers.js": [],
  });

  it("puts React, Remix and the CommonJS helper React needs in one framework chunk", () => {
    expect([chunks[react], chunks[remix], chunks["\0commonjsHelpers.js"]]).toEqual([
      "framework",
      "framework",
      "framework",
    ]);
  });

  it("puts what the root route imports (every page runs it) in the shell", () => {
    expect([chunks[session], chunks[zod]]).toEqual(["shell", "shell"]);
  });

  it("puts in the signed-in layout's chunk only what no public page imports", () => {
    expect(chunks[menu]).toBe("app-layout");
    // /login imports the form kit too. Left to Rollup, a static import of the layout's chunk's
    // modules lands in that chunk, and /login would download the whole layout: it goes to the shell.
    expect(chunks[form]).toBe("shell");
  });

  it("leaves a page's own code to Rollup's splitting", () => {
    expect([chunks[actions], chunks[actionsList], chunks[login]]).toEqual([null, null, null]);
  });
});
