export const GLYPH_FONT: string;
export const GLYPH_RANGES: string[];
export function ensureGlyphs(dir: string): string;
