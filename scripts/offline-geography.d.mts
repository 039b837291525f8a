/** Builds the offline geography GeoJSON (a string). */
export function buildGeography(): string;
/** Writes it to `path` unless already up to date; returns `path`. */
export function ensureGeography(path: string): string;
/** Builds the sketch's coarse land: rings of [lng, lat, …] as JSON (a string). */
export function buildSketchLand(): string;
/** Writes it to `path` unless already up to date; returns `path`. */
export function ensureSketchLand(path: string): string;
