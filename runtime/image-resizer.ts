// The Node ImageResizer (shared/images/resizer.ts) on sharp (libvips): EXIF orientation applied, then
// scaled down to fit, re-encoded in the same format (JPEG at quality 85). Metadata is not kept.
import sharp from "sharp";
import type { ImageResizer } from "../shared/images/resizer.ts";

export function sharpResizer(): ImageResizer {
  return {
    async fitWithin(bytes, { maxWidth, maxHeight, format }) {
      const pipeline = sharp(bytes, { limitInputPixels: 100_000_000 }).rotate().resize({ width: maxWidth, height: maxHeight, fit: "inside", withoutEnlargement: true });
      const { data, info } = await (format === "png" ? pipeline.png() : pipeline.jpeg({ quality: 85 })).toBuffer({ resolveWithObject: true });
      return { bytes: new Uint8Array(data), width: info.width, height: info.height };
    },
  };
}
