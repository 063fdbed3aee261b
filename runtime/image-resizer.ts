// The Node ImageResizer (shared/images/resizer.ts) on sharp (libvips): EXIF orientation applied, then
// scaled down to fit, re-encoded in the same format (JPEG at quality 85). Metadata is not kept.
import type { ImageResizer } from "../shared/images/resizer.ts";

// Loaded on first use, not at start: images are resized only when one is uploaded (docs/adr/0508).
const loadSharp = async () => (await import("sharp")).default;

export function sharpResizer(): ImageResizer {
  return {
    async fitWithin(bytes, { maxWidth, maxHeight, format }) {
      const sharp = await loadSharp();
      const pipeline = sharp(bytes, { limitInputPixels: 100_000_000 })
        .rotate()
        .resize({ width: maxWidth, height: maxHeight, fit: "inside", withoutEnlargement: true });
      const { data, info } = await (format === "png" ? pipeline.png() : pipeline.jpeg({ quality: 85 })).toBuffer({
        resolveWithObject: true,
      });
      return { bytes: new Uint8Array(data), width: info.width, height: info.height };
    },
    async squareIcon(bytes, { size, inner, background }) {
      const sharp = await loadSharp();
      const image = await sharp(bytes, { limitInputPixels: 100_000_000 })
        .resize(inner, inner, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
      const canvas = sharp({ create: { width: size, height: size, channels: 4, background } });
      return new Uint8Array(
        await canvas
          .composite([{ input: image, gravity: "center" }])
          .png()
          .toBuffer(),
      );
    },
  };
}
