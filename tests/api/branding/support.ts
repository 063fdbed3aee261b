// Image fixtures for the branding tests: headers real enough for the size readers (PNG IHDR, JPEG SOF0).
export { GIF, ICO, SVG, sized, upload } from "../content/support.ts";

/** A PNG signature and IHDR chunk of `width` x `height`. */
export function png(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  return b;
}

/** A JPEG: SOI, an APP0 (JFIF) segment, then SOF0 of `width` x `height`, then EOI. */
export function jpeg(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

export const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
