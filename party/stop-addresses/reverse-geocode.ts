import { z } from "zod";
import type { StreetAddress } from "../../shared/fleet/vehicle-event";

/**
 * Reverse geocoding of stop locations: Mapbox's Geocoding API (v6) when MAPBOX_TOKEN is set,
 * otherwise none. Asked by the workspace object's stop-address job (stop-address-task.ts), after the
 * report was answered, so a slow or failing geocoder never delays or fails a beacon's report; a
 * stop simply keeps no address.
 */

export const MAPBOX_REVERSE_URL = "https://api.mapbox.com/search/geocode/v6/reverse";

const named = z.object({ name: z.string().optional() }).passthrough().optional();
const mapboxAnswer = z.object({
  features: z.array(
    z.object({
      properties: z
        .object({
          context: z
            .object({
              address: z
                .object({ address_number: z.string().optional(), street_name: z.string().optional() })
                .passthrough()
                .optional(),
              street: named,
              postcode: named,
              place: named,
              locality: named,
              region: z
                .object({ name: z.string().optional(), region_code: z.string().optional() })
                .passthrough()
                .optional(),
            })
            .passthrough()
            .optional(),
        })
        .passthrough(),
    }),
  ),
});

/** The address at a point, or null when there is none or the geocoder fails. */
export async function reverseGeocode(
  token: string,
  latitude: number,
  longitude: number,
): Promise<StreetAddress | null> {
  const url = new URL(MAPBOX_REVERSE_URL);
  url.search = new URLSearchParams({
    longitude: String(longitude),
    latitude: String(latitude),
    types: "address",
    limit: "1",
    access_token: token,
  }).toString();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) {
      console.warn(`reverse geocoding failed: HTTP ${res.status}`);
      return null;
    }
    const parsed = mapboxAnswer.safeParse(await res.json());
    const context = parsed.success ? parsed.data.features[0]?.properties.context : undefined;
    if (!context) return null;
    return {
      streetNumber: context.address?.address_number ?? null,
      street: context.address?.street_name ?? context.street?.name ?? null,
      city: context.place?.name ?? context.locality?.name ?? null,
      // US states as their two-letter code ("CA"), as an address line shows them.
      state: context.region?.region_code ?? context.region?.name ?? null,
      postalCode: context.postcode?.name ?? null,
    };
  } catch (error) {
    console.warn("reverse geocoding failed:", error);
    return null;
  }
}
