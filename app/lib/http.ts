import ky, { HTTPError } from "ky";
import type { ApiErrorBody } from "../../shared/http/api";

/**
 * The browser's HTTP client for /api/*. ky's defaults are exactly docs/product.md section 7's: 10 s
 * timeout; 2 retries for get/put/head/delete/options/trace on 408, 413, 429, 500, 502, 503, 504;
 * back-off 0.3 * 2^(n-1) s; errors "Request failed with status code ..." and
 * "Request timed out ..." naming the method and URL. So we only add the bearer token.
 */
let currentToken: string | null = null;

export function setHttpToken(token: string | null) {
  currentToken = token;
}

/** Something every request waits for first: a sign-out made offline ends its session before anything else is sent. */
let gate: () => Promise<void> | undefined = () => undefined;

export function waitBeforeEveryRequest(wait: () => Promise<void> | undefined) {
  gate = wait;
}

export const http = ky.create({
  prefixUrl: typeof window === "undefined" ? "http://localhost/api" : new URL("/api", window.location.origin).href,
  hooks: {
    beforeRequest: [
      async (request) => {
        await gate();
        if (currentToken) request.headers.set("Authorization", `Bearer ${currentToken}`);
      },
    ],
  },
});

/** The API's JSON error of a failed call, if the server sent one. */
export async function apiErrorOf(error: unknown): Promise<ApiErrorBody["error"] | null> {
  if (!(error instanceof HTTPError)) return null;
  try {
    const body = (await error.response.clone().json()) as Partial<ApiErrorBody>;
    return body.error ?? null;
  } catch {
    return null;
  }
}

export { HTTPError };
