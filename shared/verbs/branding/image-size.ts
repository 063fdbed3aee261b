// Width and height of a PNG or JPEG, read from its header (PNG IHDR, JPEG start-of-frame), so a login
// background is known to be a readable image of a known size without decoding it.
export interface ImageSize {
  width: number;
  height: number;
}

function pngSize(b: Uint8Array): ImageSize | null {
  // Signature (8), IHDR length (4), "IHDR" (4), then width and height, big-endian.
  if (b.length < 24 || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR") return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

// SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2;
  // Bounded by the bytes: every step moves forward by at least 2.
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    if (isSof(marker)) return { height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

export function imageSize(bytes: Uint8Array, ext: "png" | "jpg"): ImageSize | null {
  const size = ext === "png" ? pngSize(bytes) : jpegSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
