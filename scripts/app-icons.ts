// Writes the console's default PWA icons, web/public/icons/app-192.png and app-512.png, from
// web/public/icons/app-maskable.svg with sharp. Run once when the SVG changes (`node scripts/app-icons.ts`)
// and commit the PNGs: the edge has no sharp, and a browser installs only with real 192 and 512 px PNGs.
// The SVG is maskable: a full-bleed background and the glyph inside the central safe zone (a circle of
// 40% of the width), so a launcher may crop it to any shape.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

export const DEFAULT_ICON_SIZES = [192, 512] as const;
const dir = fileURLToPath(new URL("../web/public/icons/", import.meta.url));

export async function writeAppIcons(): Promise<string[]> {
  const svg = await readFile(`${dir}app-maskable.svg`);
  const written: string[] = [];
  for (const size of DEFAULT_ICON_SIZES) {
    const out = `${dir}app-${size}.png`;
    await sharp(svg, { density: (72 * size) / 512 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(out);
    written.push(out);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) for (const f of await writeAppIcons()) console.log(`wrote ${f}`);
