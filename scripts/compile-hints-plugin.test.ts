import type { OutputBundle, OutputChunk, PluginContext, RenderedChunk } from "rollup";
import type { ResolvedConfig } from "vite";
import { describe, expect, it } from "vitest";
import { COMPILE_HINT, compileHints } from "./compile-hints-plugin";

const chunk = (name: string, code: string): OutputChunk =>
  ({ type: "chunk", name, fileName: `assets/${name}-x.js`, code, map: null }) as unknown as OutputChunk;

/** The plugin's hooks as Vite calls them for one build: `ssr` says which of Remix's two builds. */
function build(ssr: boolean, bundle: OutputBundle) {
  const plugin = compileHints();
  (plugin.configResolved as (c: ResolvedConfig) => void)({ command: "build", build: { ssr } } as ResolvedConfig);
  const hash = (name: string) =>
    (plugin.augmentChunkHash as (this: PluginContext, c: RenderedChunk) => string | undefined).call(
      {} as PluginContext,
      { name } as RenderedChunk,
    );
  const generate = plugin.generateBundle as { handler: (this: PluginContext, o: unknown, b: OutputBundle) => void };
  generate.handler.call({} as PluginContext, {}, bundle);
  return { hash };
}

describe("the compile hint on the startup chunks (docs/decisions/0107)", () => {
  it("is the first line of React's, the shell's and the signed-in layout's chunks, and of no other", () => {
    const bundle: OutputBundle = {
      framework: chunk("framework", "var a=1;"),
      shell: chunk("shell", "const __vite__mapDeps=1;"),
      "app-layout": chunk("app-layout", "import'./x';"),
      map: chunk("map-host", "export{};"),
      sync: chunk("sync-worker", "self.onmessage=0;"),
    };
    const { hash } = build(false, bundle);
    for (const name of ["framework", "shell", "app-layout"]) {
      expect((bundle[name] as OutputChunk).code.startsWith(COMPILE_HINT)).toBe(true);
      // In the file's name too: a hinted file is a different file.
      expect(hash(name)).toBe(COMPILE_HINT);
    }
    expect((bundle.map as OutputChunk).code).toBe("export{};");
    expect((bundle.sync as OutputChunk).code).toBe("self.onmessage=0;");
    expect(hash("map-host")).toBeUndefined();
  });

  it("leaves the server's build alone", () => {
    const bundle: OutputBundle = { framework: chunk("framework", "var a=1;") };
    const { hash } = build(true, bundle);
    expect((bundle.framework as OutputChunk).code).toBe("var a=1;");
    expect(hash("framework")).toBeUndefined();
  });
});
