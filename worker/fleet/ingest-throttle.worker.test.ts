import { describe, expect, it } from "vitest";
import { addressKey, DEVICE_LIMIT, MAX_KEYS, TokenBuckets, UNKNOWN_TTL_MS, UnknownDevices } from "./ingest-throttle";

describe("TokenBuckets", () => {
  it("takes a burst, refills at the sustained rate, and counts what it refused until the next pass", () => {
    const buckets = new TokenBuckets(DEVICE_LIMIT);
    const t = 1_000_000;
    expect(DEVICE_LIMIT.burst).toBe(1_000);
    expect(buckets.take("d", 1_000, t)).toEqual({ ok: true, refusedBefore: 0 });
    expect(buckets.take("d", 1, t)).toEqual({ ok: false, retryAfterS: 1 });
    expect(buckets.take("d", 4, t)).toEqual({ ok: false, retryAfterS: 2 });
    // One report a second (the limit is two) goes on forever.
    expect(buckets.take("d", 1, t + 1000)).toEqual({ ok: true, refusedBefore: 5 });
    for (let s = 2; s < 100; s++) expect(buckets.take("d", 1, t + s * 1000).ok).toBe(true);
    // Other keys have their own bucket.
    expect(buckets.take("e", 1_000, t).ok).toBe(true);
  });

  it("scales with RATE_LIMIT_SCALE and says when a request bigger than the burst could pass", () => {
    const buckets = new TokenBuckets(DEVICE_LIMIT, 0.5);
    expect(buckets.take("d", 501, 0)).toEqual({ ok: false, retryAfterS: 1 });
    expect(buckets.take("d", 500, 0).ok).toBe(true);
    expect(buckets.take("d", 800, 0)).toEqual({ ok: false, retryAfterS: 500 });
  });

  it("forgets the least recently seen key past MAX_KEYS", () => {
    const buckets = new TokenBuckets({ perSecond: 0, burst: 1 });
    expect(buckets.take("first", 1, 0).ok).toBe(true);
    for (let i = 0; i < MAX_KEYS; i++) buckets.take(`k${i}`, 1, 0);
    expect(buckets.take("first", 1, 0).ok).toBe(true); // forgotten: a full bucket again
    expect(buckets.take(`k${MAX_KEYS - 1}`, 1, 0).ok).toBe(false);
  });
});

describe("UnknownDevices", () => {
  it("remembers an unknown id for a short while only", () => {
    const unknown = new UnknownDevices();
    unknown.add("x", 0);
    expect(unknown.has("x", UNKNOWN_TTL_MS - 1)).toBe(true);
    expect(unknown.has("y", 0)).toBe(false);
    expect(unknown.has("x", UNKNOWN_TTL_MS)).toBe(false);
  });
});

describe("addressKey", () => {
  it("keys IPv4 by address and IPv6 by its /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:aa:bb::1")).toBe("2001:db8:aa:bb::/64");
    expect(addressKey("2001:0DB8:00aa:00bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("2001:db8:0:0:ffff::")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("local")).toBe("local");
  });
});
