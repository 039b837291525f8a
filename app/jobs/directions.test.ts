import { describe, expect, it } from "vitest";
import { directionsUrl, platformOf } from "./directions";

const stop = { latitude: 41.878114, longitude: -87.629798, label: "Acme (dock 2)" };

describe("directions in the phone's maps app", () => {
  it("tells the platform from the browser", () => {
    expect(platformOf("Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131")).toBe("android");
    expect(platformOf("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari")).toBe("ios");
    expect(platformOf("Mozilla/5.0 (X11; Linux x86_64) Chrome/131")).toBe("other");
  });

  it("hands Android a geo: address with the stop's name, so the driver's chosen app opens on it", () => {
    expect(directionsUrl(stop, "android")).toBe(
      `geo:41.878114,-87.629798?q=${encodeURIComponent("41.878114,-87.629798(Acme (dock 2))")}`,
    );
  });

  it("hands an iPhone Apple Maps' driving directions, and others Google Maps'", () => {
    expect(directionsUrl(stop, "ios")).toBe(
      "https://maps.apple.com/?daddr=41.878114,-87.629798&dirflg=d&q=Acme%20(dock%202)",
    );
    expect(directionsUrl({ latitude: 1, longitude: 2 }, "other")).toBe(
      "https://www.google.com/maps/dir/?api=1&destination=1.000000,2.000000&travelmode=driving",
    );
  });
});
