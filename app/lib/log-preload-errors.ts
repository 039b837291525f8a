/**
 * docs/product.md section 8: a failed route preload is logged as "Error preloading route!". Remix
 * preloads a link's route (prefetch="intent") with <link rel="prefetch"> and <link
 * rel="modulepreload"> elements; their `error` events do not bubble, so they are caught on the
 * way down. Nothing else happens: the navigation itself loads the route again when it is used.
 */
export function logPreloadErrors(target: Document = document) {
  target.addEventListener(
    "error",
    (event) => {
      const link = event.target;
      if (link instanceof HTMLLinkElement && /\b(prefetch|modulepreload)\b/.test(link.rel)) {
        console.error("Error preloading route!", link.href);
      }
    },
    true,
  );
}
