import { describe, expect, it } from "vitest";
import { call } from "../test/factories";
import type { ActiveSession } from "../../shared/account/account";

/** ASVS V3.3.4: the account's active sign-ins, each with its device and network, and sign-out of one. */
const STRONG = "correct horse battery";
const email = () => `acct-${crypto.randomUUID().slice(0, 8)}@example.com`;
const signIn = async (address: string, ip: string, agent: string) => {
  const res = await call("/api/signin", {
    method: "POST",
    headers: { "CF-Connecting-IP": ip, "User-Agent": agent },
    json: { email: address, password: STRONG },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
};
const list = async (token: string) =>
  ((await (await call("/api/account/sessions", { token })).json()) as { sessions: ActiveSession[] }).sessions;

describe("active sessions", () => {
  it("lists each sign-in with its device and network, and signs out one of them only", async () => {
    const address = email();
    expect(
      (
        await call("/api/signup", {
          method: "POST",
          headers: { "CF-Connecting-IP": "10.9.0.1" },
          json: { email: address, password: STRONG },
        })
      ).status,
    ).toBe(201);
    const laptop = await signIn(address, "10.9.0.2", "Laptop Browser/1");
    const phone = await signIn(address, "2001:db8:9:9::5", "Phone Browser/2");
    const seen = await list(laptop);
    expect(seen).toHaveLength(3);
    expect(seen.find((s) => s.current)?.device).toBe("Laptop Browser/1");
    const phoneEntry = seen.find((s) => s.device === "Phone Browser/2")!;
    expect(phoneEntry.network).toBe("2001:db8:9:9::/64");
    const res = await call(`/api/account/sessions/${phoneEntry.id}/signout`, { method: "POST", token: laptop });
    expect(res.status).toBe(200);
    expect((await call("/api/me", { token: phone })).status).toBe(401);
    expect((await call("/api/me", { token: laptop })).status).toBe(200);
    expect(await list(laptop)).toHaveLength(2);
  });

  it("cannot see or end another account's sign-in", async () => {
    const a = email();
    const b = email();
    for (const address of [a, b])
      await call("/api/signup", { method: "POST", json: { email: address, password: STRONG } });
    const tokenA = await signIn(a, "10.9.1.1", "A");
    const tokenB = await signIn(b, "10.9.1.2", "B");
    const idOfB = (await list(tokenB)).find((s) => s.current)!.id;
    expect((await list(tokenA)).some((s) => s.id === idOfB)).toBe(false);
    const res = await call(`/api/account/sessions/${idOfB}/signout`, { method: "POST", token: tokenA });
    expect(res.status).toBe(404);
    expect((await call("/api/me", { token: tokenB })).status).toBe(200);
  });
});
