import type { OutputBundle, OutputChunk, PluginContext, RenderedChunk } from "rollup";
import type { ResolvedConfig } from "vite";
import { describe, expect, it } from "vitest";
import { COMPILE_HINT, compileHints } from "./compile-hints-plugin";

const own = ["/p/app/routes/_app.inspections.tsx", "/p/shared/maintenance/inspections.ts"];
const mapbox = ["/p/app/map/fleet-map.tsx", "/p/node_modules/mapbox-gl/dist/esm/core.js"];

const chunk = (name: string, code: string, moduleIds = own): OutputChunk =>
  ({ type: "chunk", name, fileName: `assets/${name}-x.js`, code, map: null, moduleIds }) as unknown as OutputChunk;

/** The plugin's hooks as Vite calls them for one build: `ssr` says which of Remix's two builds. */
function build(ssr: boolean, bundle: OutputBundle) {
  const plugin = compileHints();
  (plugin.configResolved as (c: ResolvedConfig) => void)({ command: "build", build: { ssr } } as ResolvedConfig);
  const hash = (name: string, moduleIds = own) =>
    (plugin.augmentChunkHash as (this: PluginContext, c: RenderedChunk) => string | undefined).call(
      {} as PluginContext,
      { name, moduleIds } as RenderedChunk,
    );
  const generate = plugin.generateBundle as { handler: (this: PluginContext, o: unknown, b: OutputBundle) => void };
  generate.handler.call({} as PluginContext, {}, bundle);
  return { hash };
}

describe("the compile hint on the startup chunks (docs/decisions/0107)", () => {
  it("is the first line of the startup chunks and of our own code's, not of a package's", () => {
    const react = ["/p/node_modules/react-dom/index.js"];
    const bundle: OutputBundle = {
      framework: chunk("framework", "var a=1;", react),
      shell: chunk("shell", "const __vite__mapDeps=1;", ["/p/app/root.tsx", "/p/node_modules/zod/index.js"]),
      "app-layout": chunk("app-layout", "import'./x';"),
      page: chunk("_app.inspections", "export{};"),
      map: chunk("map-host", "export{};", mapbox),
      virtual: chunk("preload-helper", "export{};", ["\0vite/preload-helper.js"]),
    };
    const { hash } = build(false, bundle);
    for (const name of ["framework", "shell", "app-layout", "page"]) {
      expect((bundle[name] as OutputChunk).code.startsWith(COMPILE_HINT)).toBe(true);
    }
    // In the file's name too: a hinted file is a different file.
    expect(hash("framework", react)).toBe(COMPILE_HINT);
    expect(hash("_app.inspections")).toBe(COMPILE_HINT);
    expect((bundle.map as OutputChunk).code).toBe("export{};");
    expect((bundle.virtual as OutputChunk).code).toBe("export{};");
    expect(hash("map-host", mapbox)).toBeUndefined();
  });

  it("leaves the server's build alone", () => {
    const bundle: OutputBundle = { framework: chunk("framework", "var a=1;"), page: chunk("_app.inspections", "x;") };
    const { hash } = build(true, bundle);
    expect((bundle.framework as OutputChunk).code).toBe("var a=1;");
    expect((bundle.page as OutputChunk).code).toBe("x;");
    expect(hash("framework")).toBeUndefined();
  });
});
