/**
 * Where the login page may send the user after signing in: a path on this origin only (OWASP
 * Unvalidated Redirects cheat sheet). The value is parsed against the origin, as the browser will
 * resolve it, so `//evil.com`, `/\evil.com`, `https://evil.com`, `javascript:` and tab or newline
 * tricks all resolve elsewhere and are refused; the answer is the parsed path, query and hash.
 */
export function safeRedirect(value: string | null | undefined, origin: string): string {
  if (!value) return "/";
  let target: URL;
  try {
    target = new URL(value, origin);
  } catch {
    return "/";
  }
  if (target.origin !== new URL(origin).origin) return "/";
  return `${target.pathname}${target.search}${target.hash}`;
}
