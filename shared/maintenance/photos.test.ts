import { describe, expect, it } from "vitest";
import { formatBytes, photoIdFor, photoIdSchema, sniffImageType } from "./photos";

const bytes = (...b: (number | string)[]) =>
  new Uint8Array(b.flatMap((x) => (typeof x === "string" ? [...x].map((c) => c.charCodeAt(0)) : [x])));

describe("sniffImageType", () => {
  it("knows JPEG, PNG and WebP by their first bytes", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xdb))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffImageType(bytes("RIFF", 1, 2, 3, 4, "WEBPVP8 "))).toBe("image/webp");
  });
  it("refuses anything else, however it is labelled", () => {
    expect(sniffImageType(bytes("<svg"))).toBeNull();
    expect(sniffImageType(bytes("GIF89a"))).toBeNull();
    expect(sniffImageType(bytes("RIFF", 1, 2, 3, 4, "WAVE"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe("photoIdFor", () => {
  const ref = "5b0e4ad1-6f0e-4c43-9c55-2c1b8d1e0a11";
  it("is the same on every device for one uploader's reference, and a valid photo id", async () => {
    const id = await photoIdFor("ws-1", "user-1", ref);
    expect(await photoIdFor("ws-1", "user-1", ref)).toBe(id);
    expect(photoIdSchema.safeParse(id).success).toBe(true);
    expect(id).not.toBe(ref);
  });
  it("differs for another uploader or workspace: nobody else can upload under a photo's id", async () => {
    const id = await photoIdFor("ws-1", "user-1", ref);
    expect(await photoIdFor("ws-1", "user-2", ref)).not.toBe(id);
    expect(await photoIdFor("ws-2", "user-1", ref)).not.toBe(id);
  });
});

describe("formatBytes", () => {
  it("says a size in decimal units", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(2_500_000)).toBe("2.5 MB");
    expect(formatBytes(1_000_000_000)).toBe("1 GB");
    expect(formatBytes(250_000_000)).toBe("250 MB");
  });
});
