import "@remix-run/cloudflare";

// Single fetch is on (vite.config.ts); this types loaders' data accordingly.
declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}
