import { crc32, deflateSync } from "node:zlib";

/**
 * A small receipt as a PNG (issue 42): the demo's fill-ups carry a photo as a driver's would. A
 * paper strip, a dark header band, and one line per figure whose length follows the figure, so
 * two receipts do not look alike; no text (no font to draw with), which a thumbnail would not show anyway.
 */
const WIDTH = 120;
const HEIGHT = 200;

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** Grey levels, a row at a time: 255 paper, darker for the header and the printed lines. */
function shade(x: number, y: number, lines: number[]): number {
  if (x < 8 || x >= WIDTH - 8) return 200; // the table the receipt lies on
  if (y >= 12 && y < 32) return 60;
  const row = Math.floor((y - 44) / 14);
  const within = (y - 44) % 14;
  if (row >= 0 && row < lines.length && within < 5 && x >= 16 && x < 16 + lines[row]!) return 90;
  return 250;
}

/** A receipt whose printed lines follow these figures (e.g. litres, cost, odometer). */
export function receiptPng(figures: number[]): Uint8Array<ArrayBuffer> {
  const lines = figures.map((f, i) => 30 + ((Math.round(Math.abs(f) * 7) + i * 13) % 60));
  lines.push(80, 50); // the total and the thank-you
  const raw = Buffer.alloc((WIDTH + 1) * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    raw[y * (WIDTH + 1)] = 0; // no filter
    for (let x = 0; x < WIDTH; x++) raw[y * (WIDTH + 1) + 1 + x] = shade(x, y, lines);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]),
  );
}
