/**
 * Directions handed to the phone's own maps app: the driver taps one link and gets turn by turn
 * from where they are, with no routing of ours. Android opens a `geo:` address in the maps app
 * the driver chose; an iPhone opens Apple Maps from its https address; a desktop gets Google
 * Maps' directions page (which phones with the app also open in it).
 */
export type Platform = "android" | "ios" | "other";

export function platformOf(userAgent: string): Platform {
  if (/android/i.test(userAgent)) return "android";
  if (/iphone|ipad|ipod/i.test(userAgent)) return "ios";
  return "other";
}

export function directionsUrl(
  stop: { latitude: number; longitude: number; label?: string },
  platform: Platform,
): string {
  const at = `${stop.latitude.toFixed(6)},${stop.longitude.toFixed(6)}`;
  const label = stop.label?.trim();
  if (platform === "android") return `geo:${at}?q=${encodeURIComponent(label ? `${at}(${label})` : at)}`;
  if (platform === "ios")
    return `https://maps.apple.com/?daddr=${at}&dirflg=d${label ? `&q=${encodeURIComponent(label)}` : ""}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${at}&travelmode=driving`;
}
