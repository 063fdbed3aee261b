// Which stored types a browser may show inline: raster images only. Anything else (SVG above all, which
// can carry script) is served as a sandboxed attachment.
const RASTER = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/x-icon", "image/vnd.microsoft.icon"]);

export function isRasterImage(contentType: string): boolean {
  return RASTER.has(contentType.split(";")[0]!.trim().toLowerCase());
}

/** A Windows icon file: reserved 0, type 1, at least one image (told by the header, never the name). */
export function isIco(bytes: Uint8Array): boolean {
  return bytes.length >= 22 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 1 && bytes[3] === 0 && (bytes[4]! | (bytes[5]! << 8)) > 0;
}
