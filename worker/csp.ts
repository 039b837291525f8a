/**
 * The pages' Content-Security-Policy (ASVS V14.4, docs/decisions/0010-sessions-socket-tickets-csp.md).
 *
 * Scripts: our own files plus the exact inline scripts the app renders (Remix's context and module
 * loader, scroll restoration, React's streaming scripts), allowed by their SHA-256 hashes, never
 * 'unsafe-inline'. Which inline scripts are the app's: the render gives them a random nonce
 * (app/lib/script-nonce.ts); only scripts carrying it are hashed, and the nonce is stripped, so the
 * HTML stays the same for every user and cacheable at the edge (docs/decisions/0002) while a script
 * injected into the page (which cannot know the nonce) is neither hashed nor run.
 *
 * Connections: this origin only (its API and, with 'self', its websocket rooms) plus the map's
 * hosts, so an injected script could not send the token (localStorage, by docs/product.md) elsewhere.
 * mapbox-gl needs blob: workers and sets inline styles on its elements (its markers, popups and
 * canvas sizing write `element.style`, and our components use React's `style`), so styles keep
 * 'unsafe-inline': no script runs from a style, and connect-src keeps an injected style from
 * sending anything elsewhere (docs/decisions/0021).
 */
/**
 * The map's hosts, only those this deployment's map uses (issue 56): Mapbox's with a token (its
 * style, tiles and usage events); without one OpenFreeMap's one host for its keyless street style,
 * TileJSON, tiles, sprites and glyphs (docs/decisions/0025), and nothing of Mapbox's, which
 * app/map/map-host.tsx then never asks.
 */
export const MAPBOX_HOSTS = ["https://api.mapbox.com", "https://*.tiles.mapbox.com", "https://events.mapbox.com"];
export const OPENFREEMAP_HOSTS = ["https://tiles.openfreemap.org"];
export const mapHostsFor = (mapboxToken: string) => (mapboxToken ? MAPBOX_HOSTS : OPENFREEMAP_HOSTS);

export function contentSecurityPolicy(scriptHashes: readonly string[], mapHosts: readonly string[]): string {
  const mapStyles = mapHosts.includes("https://api.mapbox.com") ? ["https://api.mapbox.com"] : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`)],
    "style-src": ["'self'", "'unsafe-inline'", ...mapStyles],
    "img-src": ["'self'", "data:", "blob:", ...mapHosts],
    "connect-src": ["'self'", ...mapHosts],
    "worker-src": ["'self'", "blob:"],
    "child-src": ["blob:"],
    "font-src": ["'self'", "data:"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Base64 SHA-256 of a script's text, as CSP's 'sha256-…' source wants it. */
async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/**
 * The page with a CSP that allows exactly the inline scripts this render gave `nonce`, the
 * attribute then removed. The HTML is read whole (a page is a few KB, and the header must be known
 * before the body goes out); anything but HTML passes through with the hash-less policy.
 */
export async function withContentSecurityPolicy(
  res: Response,
  nonce: string,
  mapHosts: readonly string[],
): Promise<Response> {
  const headers = new Headers(res.headers);
  if (!res.body || !(res.headers.get("Content-Type") ?? "").includes("text/html")) {
    headers.set("Content-Security-Policy", contentSecurityPolicy([], mapHosts));
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
  const inline: string[] = [];
  let current: string | null = null;
  const html = await new HTMLRewriter()
    .on("script", {
      element(script) {
        const ours = script.getAttribute("nonce") === nonce;
        if (ours) script.removeAttribute("nonce");
        if (!ours || script.hasAttribute("src")) return;
        current = "";
        script.onEndTag(() => {
          inline.push(current ?? "");
          current = null;
        });
      },
      text(chunk) {
        if (current !== null) current += chunk.text;
      },
    })
    // Remix gives its modulepreload links the nonce too: stripped alike, so no page carries it.
    .on("link[nonce]", {
      element(link) {
        if (link.getAttribute("nonce") === nonce) link.removeAttribute("nonce");
      },
    })
    .transform(res)
    .text();
  const hashes = [...new Set(await Promise.all(inline.map(sha256Base64)))];
  headers.set("Content-Security-Policy", contentSecurityPolicy(hashes, mapHosts));
  headers.delete("Content-Length");
  return new Response(html, { status: res.status, statusText: res.statusText, headers });
}
