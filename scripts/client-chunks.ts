import type { GetManualChunk, ManualChunkMeta } from "rollup";

/** React, React DOM and Remix's client: every page runs all of them, so they travel as one file. */
const FRAMEWORK =
  /\/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\//;

/** Rollup's CommonJS interop (React needs it) and Vite's preloading of lazily loaded chunks. */
const HELPERS = /^\0(commonjsHelpers\.js$|vite\/)/;

type ModuleInfo = NonNullable<ReturnType<ManualChunkMeta["getModuleInfo"]>>;

/** Every module `from` reaches through static imports, itself included. */
function staticClosure(from: string[], info: (id: string) => ModuleInfo | null): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}

/** Route modules (app/root.tsx is "root", app/routes/x.tsx is "x") whose name passes `test`. */
function routes(meta: ManualChunkMeta, test: (name: string) => boolean): string[] {
  return [...meta.getModuleIds()].filter((id) => {
    const name = /\/app\/(root)\.tsx$/.exec(id)?.[1] ?? /\/app\/routes\/([^/?]+)\.tsx$/.exec(id)?.[1];
    return name !== undefined && test(name);
  });
}

/**
 * The browser build's chunks (docs/decisions/0054). Left to itself Rollup cuts a chunk for every
 * set of routes sharing a module, about 45 files for a signed-in page, most under 1 KB: on a phone's
 * 150 ms round trip, over HTTP/1.1's six connections, the waits cost more than the bytes. Three
 * groups instead, each loaded by exactly the pages that need all of it:
 * - `framework`: React and Remix;
 * - `shell`: what the root route imports (session, sync provider, store, zod), which every page runs;
 * - `app-layout`: what the signed-in layout (routes/_app.tsx) imports and no public page does.
 *   What it imports that a public page imports too goes to the shell: Rollup puts every static
 *   import of a manual chunk's modules that no manual chunk holds into that chunk, so `/login`,
 *   importing `use-online.ts` from it, downloaded the whole signed-in layout (53 KB gzipped,
 *   found by `npm run bench -- bundle`; docs/decisions/0107).
 * Everything else (each page's own code, what only some pages share, the lazily loaded map) is
 * split as before.
 */
export function clientChunks(): GetManualChunk {
  let shell: Set<string> | null = null;
  let layout: LayoutModules | null = null;
  return (id, meta) => {
    if (FRAMEWORK.test(id) || HELPERS.test(id)) return "framework";
    const info = (m: string) => meta.getModuleInfo(m);
    shell ??= staticClosure(
      routes(meta, (f) => f === "root"),
      info,
    );
    layout ??= layoutModules(meta, shell);
    if (shell.has(id) || layout.sharedWithPublic.has(id)) return "shell";
    return layout.signedInOnly.has(id) ? "app-layout" : undefined;
  };
}

interface LayoutModules {
  /** reached statically by the signed-in layout and by no other top-level route */
  signedInOnly: Set<string>;
  /** reached statically by the signed-in layout and by a public page too, outside the shell */
  sharedWithPublic: Set<string>;
}

/** The modules the signed-in layout (routes/_app.tsx) reaches statically, beyond the shell and React. */
function layoutModules(meta: ManualChunkMeta, shell: Set<string>): LayoutModules {
  const info = (m: string) => meta.getModuleInfo(m);
  const layout = staticClosure(
    routes(meta, (f) => f === "_app"),
    info,
  );
  const publicPages = staticClosure(
    routes(meta, (f) => f !== "root" && !f.startsWith("_app")),
    info,
  );
  const signedInOnly = new Set<string>();
  const sharedWithPublic = new Set<string>();
  for (const id of layout) {
    if (shell.has(id) || FRAMEWORK.test(id)) continue;
    (publicPages.has(id) ? sharedWithPublic : signedInOnly).add(id);
  }
  return { signedInOnly, sharedWithPublic };
}
