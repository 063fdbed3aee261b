// Byte/text encodings used by the credential formats. Written out here because Node 24 has no
// Uint8Array.fromBase64 yet, Buffer is off limits in shared/, and no base32/base64 package is installed.
// Decoders never throw: they answer null for anything that is not a valid encoding.

const HEX = "0123456789abcdef";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** RFC 4648 section 6. */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function lookup(alphabet: string, caseInsensitive = false): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) {
    const c = alphabet.charCodeAt(i);
    table[c] = i;
    if (caseInsensitive) {
      table[String.fromCharCode(c).toLowerCase().charCodeAt(0)] = i;
      table[String.fromCharCode(c).toUpperCase().charCodeAt(0)] = i;
    }
  }
  return table;
}

const HEX_LOOKUP = lookup(HEX, true);
const BASE64_LOOKUP = lookup(BASE64);
const BASE64URL_LOOKUP = lookup(BASE64URL);
const BASE32_LOOKUP = lookup(BASE32, true);

function encodeBits(bytes: Uint8Array, alphabet: string, bits: number): string {
  const mask = (1 << bits) - 1;
  let out = "";
  let buffer = 0;
  let pending = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    pending += 8;
    while (pending >= bits) {
      pending -= bits;
      out += alphabet[(buffer >> pending) & mask];
    }
    buffer &= (1 << pending) - 1;
  }
  if (pending > 0) out += alphabet[(buffer << (bits - pending)) & mask];
  return out;
}

/**
 * `strict` refuses non-zero leftover bits, so every byte string has exactly one accepted encoding
 * (otherwise changing the last character of a stored hash could decode to the same bytes).
 */
function decodeBits(text: string, table: Int16Array, bits: number, strict: boolean): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * bits) / 8));
  let buffer = 0;
  let pending = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? table[c]! : -1;
    if (v < 0) return null;
    buffer = (buffer << bits) | v;
    pending += bits;
    if (pending >= 8) {
      pending -= 8;
      out[n++] = (buffer >> pending) & 0xff;
    }
    buffer &= (1 << pending) - 1;
  }
  // A whole character left over carries no byte: the length itself is impossible.
  if (pending >= bits) return null;
  if (strict && buffer !== 0) return null;
  return out.subarray(0, n);
}

/** Lower-case hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
}

/** Hex of either case, even length, nothing else. */
export function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0) return null;
  return decodeBits(hex, HEX_LOOKUP, 4, true);
}

/** Standard base64 with `=` padding (RFC 4648 section 4). */
export function bytesToBase64(bytes: Uint8Array): string {
  const body = encodeBits(bytes, BASE64, 6);
  return body + "=".repeat((4 - (body.length % 4)) % 4);
}

/** Canonical padded base64 only (what `bytesToBase64` writes). */
export function base64ToBytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const body = text.replace(/={1,2}$/, "");
  // Padding must be exactly what the body length implies.
  if ((4 - (body.length % 4)) % 4 !== text.length - body.length) return null;
  return decodeBits(body, BASE64_LOOKUP, 6, true);
}

/** URL-safe base64 without padding (RFC 4648 section 5). */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return encodeBits(bytes, BASE64URL, 6);
}

/** Canonical unpadded base64url only. */
export function base64UrlToBytes(text: string): Uint8Array | null {
  return decodeBits(text, BASE64URL_LOOKUP, 6, true);
}

/** RFC 4648 base32, upper case, no padding (the form authenticator apps expect). */
export function bytesToBase32(bytes: Uint8Array): string {
  return encodeBits(bytes, BASE32, 5);
}

/**
 * Lenient base32 for secrets typed or pasted by people: any case, spaces ignored, trailing `=` padding
 * ignored, non-zero leftover bits tolerated.
 */
export function base32ToBytes(text: string): Uint8Array | null {
  const body = text.replace(/\s+/g, "").replace(/=+$/, "");
  return decodeBits(body, BASE32_LOOKUP, 5, false);
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}
