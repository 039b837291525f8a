import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, setHttpToken } from "./http";

// The browser client must behave as docs/product.md section 7 says; checked against a real local server.
let server: Server;
let base: string;
const hits = new Map<string, number>();
let lastAuthorization: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    lastAuthorization = req.headers.authorization;
    if (path.startsWith("/unavailable")) {
      res.writeHead(503, { "Retry-After": "0" }).end();
    } else if (path.startsWith("/bad")) {
      res.writeHead(400, { "Content-Type": "application/json" }).end('{"error":{"code":"bad_request","message":"no"}}');
    } else {
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => http.extend({ prefixUrl: base });

describe("browser HTTP client", () => {
  it("sends the session token as a bearer authorization", async () => {
    setHttpToken("tok123");
    await client().get("ok").json();
    expect(lastAuthorization).toBe("Bearer tok123");
    setHttpToken(null);
    await client().get("ok").json();
    expect(lastAuthorization).toBeUndefined();
  });

  it("retries a GET twice on 503 and then fails naming status, method and URL", async () => {
    const err = await client()
      .get("unavailable-get")
      .catch((e: Error) => e);
    expect(hits.get("/unavailable-get")).toBe(3);
    expect(String(err)).toMatch(/Request failed with status code 503.*GET http:\/\/127\.0\.0\.1:\d+\/unavailable-get/);
  });

  it("does not retry a POST", async () => {
    await client()
      .post("unavailable-post")
      .catch(() => undefined);
    expect(hits.get("/unavailable-post")).toBe(1);
  });

  it("does not retry a 400", async () => {
    await client()
      .get("bad")
      .catch(() => undefined);
    expect(hits.get("/bad")).toBe(1);
  });
});
