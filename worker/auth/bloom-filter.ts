/**
 * A Bloom filter read from bytes: `k` bit positions per value from one SHA-256 digest by double
 * hashing (Kirsch & Mitzenmacher: h1 + i*h2 is as good as k independent hashes). Written here
 * rather than taken from `bloom-filters` because that package brings a dozen dependencies into the
 * Worker for what is these twenty lines; scripts/build-breached-filter.mjs builds the bytes with
 * `bloomPositions` so both sides hash alike.
 */
export interface BloomParameters {
  /** bits in the filter */
  bits: number;
  /** positions per value */
  hashes: number;
}

/** The bit positions of `value`: SHA-256 of its UTF-8, the first two 32-bit words as h1 and h2. */
export async function bloomPositions(value: string, { bits, hashes }: BloomParameters): Promise<number[]> {
  const digest = new DataView(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  const h1 = digest.getUint32(0);
  const h2 = digest.getUint32(4) | 1; // odd, so the positions never repeat one step
  return Array.from({ length: hashes }, (_, i) => ((h1 + Math.imul(i, h2)) >>> 0) % bits);
}

/** Whether every position of `value` is set: false means surely absent, true means present or a false positive. */
export async function bloomHas(filter: Uint8Array, parameters: BloomParameters, value: string): Promise<boolean> {
  const positions = await bloomPositions(value, parameters);
  return positions.every((p) => ((filter[p >>> 3] ?? 0) & (1 << (p & 7))) !== 0);
}

/** The parameters for `count` values at a false-positive rate `rate` (the textbook optimum). */
export function bloomParametersFor(count: number, rate: number): BloomParameters {
  const bits = Math.ceil((-count * Math.log(rate)) / Math.LN2 ** 2);
  return { bits, hashes: Math.max(1, Math.round((bits / count) * Math.LN2)) };
}
