/**
 * A growable byte buffer with LEB128 varints (zigzag for signed values), the building block of the
 * positions codec (./codec.ts). Numbers up to 2^52 take the fast path; larger ones (and the 64-bit
 * bit-pattern corrections of the codec) go through BigInt so nothing is ever rounded.
 */
const FAST = 2 ** 52;

export class ByteWriter {
  #bytes = new Uint8Array(256);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  byte(value: number): void {
    if (this.#length === this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes[this.#length++] = value;
  }

  bytes(values: Uint8Array): void {
    for (const v of values) this.byte(v);
  }

  /** An unsigned integer (a non-negative safe integer, or a bigint). */
  unsigned(value: number | bigint): void {
    if (typeof value === "number" && value < FAST) {
      let n = value;
      while (n >= 0x80) {
        this.byte((n % 0x80) | 0x80);
        n = Math.floor(n / 0x80);
      }
      this.byte(n);
      return;
    }
    let n = BigInt(value);
    while (n >= 0x80n) {
      this.byte(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.byte(Number(n));
  }

  /** A signed integer, zigzag-encoded: small magnitudes of either sign take one byte. */
  signed(value: number | bigint): void {
    if (typeof value === "number" && Math.abs(value) < FAST) {
      this.unsigned(value >= 0 ? value * 2 : -value * 2 - 1);
      return;
    }
    const n = BigInt(value);
    this.unsigned(n >= 0n ? n * 2n : -n * 2n - 1n);
  }

  finish(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }
}

export class ByteReader {
  #at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.#at >= this.bytes.length) throw new Error("positions blob: truncated");
    return this.bytes[this.#at++]!;
  }

  take(n: number): Uint8Array {
    if (this.#at + n > this.bytes.length) throw new Error("positions blob: truncated");
    const out = this.bytes.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }

  /** An unsigned varint as a number (exact up to 2^53). */
  unsigned(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
      if (scale > 2 ** 63) throw new Error("positions blob: varint too long");
    }
  }

  /** An unsigned varint as a bigint (any width). */
  unsignedBig(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
      if (shift > 70n) throw new Error("positions blob: varint too long");
    }
  }

  signed(): number {
    const z = this.unsigned();
    if (z < FAST * 2) return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    // Past 2^53 the number path may have rounded: read it again exactly.
    throw new Error("positions blob: signed varint out of range");
  }

  signedBig(): bigint {
    const z = this.unsignedBig();
    return z % 2n === 0n ? z / 2n : -(z + 1n) / 2n;
  }

  get done(): boolean {
    return this.#at >= this.bytes.length;
  }
}
