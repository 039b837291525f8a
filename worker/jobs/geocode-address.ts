import { z } from "zod";

/**
 * Forward geocoding of a job's address (issue 43): Mapbox's Geocoding API (v6), the provider the
 * stops' reverse geocoding uses (party/stop-addresses/reverse-geocode.ts), with the same token. Null when the
 * geocoder finds nothing or fails: the caller asks for coordinates instead.
 */
export const MAPBOX_FORWARD_URL = "https://api.mapbox.com/search/geocode/v6/forward";

const answer = z.object({
  features: z.array(
    z.object({ geometry: z.object({ coordinates: z.tuple([z.number(), z.number()]) }).passthrough() }).passthrough(),
  ),
});

export async function forwardGeocode(
  token: string,
  address: string,
): Promise<{ latitude: number; longitude: number } | null> {
  const url = new URL(MAPBOX_FORWARD_URL);
  url.search = new URLSearchParams({ q: address, limit: "1", access_token: token }).toString();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) {
      console.error(`forward geocoding answered ${res.status}`);
      return null;
    }
    const parsed = answer.safeParse(await res.json());
    const feature = parsed.success ? parsed.data.features[0] : undefined;
    if (!feature) return null;
    const [longitude, latitude] = feature.geometry.coordinates;
    return { latitude, longitude };
  } catch (error) {
    console.error("forward geocoding failed:", error);
    return null;
  }
}
