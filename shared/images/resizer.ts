// Image resizing, which needs a native library (sharp) the edge cannot load: the Node entries provide
// it in Deps.images, the edge does not, and callers store what they have when it is absent.
export interface ImageResizer {
  /** Scales `bytes` down (never up) to fit within maxWidth × maxHeight, keeping its format and aspect. */
  fitWithin(
    bytes: Uint8Array,
    options: { maxWidth: number; maxHeight: number; format: "png" | "jpg" },
  ): Promise<{ bytes: Uint8Array; width: number; height: number }>;
  /**
   * A size × size PNG: `bytes` scaled to fit `inner` × `inner` (up or down), centred on `background`.
   * With inner at most 56% of size the image stays in a maskable icon's safe zone (a circle of 40%).
   */
  squareIcon(bytes: Uint8Array, options: { size: number; inner: number; background: string }): Promise<Uint8Array>;
}
