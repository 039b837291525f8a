/** Builds the offline geography GeoJSON (a string). */
export function buildGeography(): string;
/** Writes it to `path` unless already up to date; returns `path`. */
export function ensureGeography(path: string): string;
