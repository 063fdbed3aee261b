// Comparisons for secrets and digests. Every secret comparison in the project goes through these, so the
// time taken depends on the lengths of the inputs only, never on where the first differing byte is.
// (JavaScript gives no hard guarantee; this is the usual best effort: no early exit, no data-dependent branch.)

/** True when `a` and `b` hold the same bytes. A length mismatch is false, after the same full pass. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const n = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < n; i++) {
    // Out-of-range reads give undefined; `| 0` turns that into 0 without a branch on the content.
    diff |= (a[i]! | 0) ^ (b[i]! | 0);
  }
  return diff === 0;
}

const encoder = new TextEncoder();

/** `timingSafeEqual` over the UTF-8 bytes of two strings (hex digests, encoded hashes). */
export function timingSafeEqualString(a: string, b: string): boolean {
  return timingSafeEqual(encoder.encode(a), encoder.encode(b));
}
