import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

// The Worker (wrangler dev, port 8787 unless WORKER_PORT says otherwise) serves /api and the
// realtime rooms; in `npm run dev` Vite serves the pages with hot reload and proxies the rest.
const worker = `http://127.0.0.1:${process.env.WORKER_PORT ?? 8787}`;

export default defineConfig({
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  server: {
    proxy: {
      "/api": worker,
      "/parties": { target: worker, ws: true },
    },
  },
  ssr: {
    // Workers resolve packages with their browser/worker conditions.
    resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
  },
});
