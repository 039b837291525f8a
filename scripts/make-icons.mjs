// Writes the web app manifest's icons (public/icons/*.png) from one drawing: a green beacon on
// the brand blue. Run by hand when the drawing changes; the PNGs are committed, so neither the
// build nor a fresh clone needs sharp's native binary.
import sharp from "sharp";

const brand = "#2563eb";

/** The beacon; `padding` is the share of the side kept clear (maskable icons keep a safe zone). */
const drawing = (padding) => {
  const r = 16 * (1 - padding);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="${padding ? 0 : 6}" fill="${brand}"/>
  <circle cx="16" cy="16" r="${r * 0.62}" fill="#16a34a" stroke="#fff" stroke-width="${r * 0.16}"/>
</svg>`;
};

const icons = [
  { file: "icon-192.png", size: 192, padding: 0 },
  { file: "icon-512.png", size: 512, padding: 0 },
  // Android crops maskable icons to a circle of 80 % of the side: the beacon stays inside it.
  { file: "icon-maskable-512.png", size: 512, padding: 0.2 },
  { file: "apple-touch-icon.png", size: 180, padding: 0.1 },
  // The tab's icon: a PNG, which the browser decodes off the page's main thread; an SVG favicon is
  // a document of its own drawn on it, about 65 ms of a throttled phone's start (docs/decisions/0107).
  { file: "favicon-32.png", size: 32, padding: 0 },
];

for (const { file, size, padding } of icons) {
  await sharp(Buffer.from(drawing(padding)), { density: 72 * (size / 32) })
    .resize(size, size)
    .png()
    .toFile(new URL(`../public/icons/${file}`, import.meta.url).pathname);
  console.log(`public/icons/${file} (${size} px)`);
}
