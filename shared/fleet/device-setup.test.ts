import { describe, expect, it } from "vitest";
import { deviceSetup, deviceSetupSchema, overlandSetupLink, VEHICLE_REPORTING } from "./device-setup";

const ID = "Zk3q_p9XUu2mA1bC4dE5fG6hI7jK8lMn";

describe("a phone's setup in one scan", () => {
  const setup = deviceSetup("https://fleet.example.com", ID);

  it("has exactly DESIGN.md's shape", () => {
    expect(deviceSetupSchema.strict().safeParse({ ...setup, overland: setup.overland }).success).toBe(true);
    expect(Object.keys(setup).sort()).toEqual(["overland", "ownTracks", "traccarClient"]);
  });

  it("gives Traccar Client the OsmAnd URL as its server and its settings in the query", () => {
    const url = new URL(setup.traccarClient);
    // What Traccar Client keeps as its server URL: origin and path, the query dropped.
    expect(`${url.origin}${url.pathname}`).toBe("https://fleet.example.com/api/ingest/osmand");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      id: ID,
      interval: String(VEHICLE_REPORTING.intervalS),
      accuracy: "high",
    });
  });

  it("gives OwnTracks a complete HTTP-mode configuration, base64 in owntracks:///config?inline=", () => {
    const link = new URL(setup.ownTracks);
    expect(link.protocol).toBe("owntracks:");
    const inline = link.searchParams.get("inline")!;
    const configuration = JSON.parse(Buffer.from(inline, "base64").toString("utf8")) as Record<string, unknown>;
    expect(configuration).toMatchObject({
      _type: "configuration",
      mode: 3,
      url: "https://fleet.example.com/api/ingest/owntracks",
      deviceId: ID,
      locatorPriority: 3,
    });
  });

  it("gives Overland its receiver URL and device id, and a setup link of its own", () => {
    expect(setup.overland).toEqual({ url: "https://fleet.example.com/api/ingest/overland", deviceId: ID });
    const link = new URL(overlandSetupLink(setup.overland));
    expect(link.protocol).toBe("overland:");
    expect(link.searchParams.get("url")).toBe(setup.overland.url);
    expect(link.searchParams.get("device_id")).toBe(ID);
  });

  it("follows the server's address, its port included", () => {
    expect(deviceSetup("http://127.0.0.1:8830/", ID).overland.url).toBe("http://127.0.0.1:8830/api/ingest/overland");
  });
});
