// The enrollment pairing code (spec/catalogue.tsv, group agents): 12 Crockford base32 characters (60 bits) shown
// as XXXX-XXXX-XXXX, single-use, 15 minutes. Only its SHA-256 is stored; a code typed with lower case,
// spaces or without dashes, or with the letters Crockford reads as digits (O, I, L), still matches.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8Bytes } from "../../auth/encoding.ts";
import type { Random } from "../../clock.ts";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const PAIRING_CODE_TTL_MS = 15 * 60_000;

/** A fresh code, `XXXX-XXXX-XXXX`. */
export function mintPairingCode(random: Random): string {
  const bytes = random.bytes(12);
  let code = "";
  // 256 is a multiple of 32, so `byte % 32` is uniform.
  for (const b of bytes) code += ALPHABET[b % 32];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

/** The canonical 12 characters of what a person typed, or null when it cannot be a code. */
export function normalizePairingCode(text: string): string | null {
  const canonical = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return /^[0-9A-HJKMNP-TV-Z]{12}$/.test(canonical) ? canonical : null;
}

/** The stored form: hex SHA-256 of the canonical characters. */
export function hashPairingCode(code: string): string | null {
  const canonical = normalizePairingCode(code);
  return canonical ? bytesToHex(sha256(utf8Bytes(canonical))) : null;
}
