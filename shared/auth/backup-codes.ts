// One-time MFA backup codes: shown once as `abcd-efgh-jkmn`, stored only as `sha256$<salt_hex>$<hash_hex>`
// (mfa_backup_codes.code_hash). A fast salted hash suffices: each code carries ~59 bits of entropy.
import { sha256 } from "@noble/hashes/sha2.js";
import { cryptoRandom, type Random } from "../clock.ts";
import { timingSafeEqual } from "./constant-time.ts";
import { bytesToHex, hexToBytes, utf8Bytes } from "./encoding.ts";

/** 31 characters with none that reads like another: no 0/o, no 1/l/i. */
export const BACKUP_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
const GROUPS = 3;
const GROUP_LENGTH = 4;
const SALT_BYTES = 16;
/** Bits of entropy in one code: 12 * log2(31). */
export const BACKUP_CODE_BITS = GROUPS * GROUP_LENGTH * Math.log2(BACKUP_CODE_ALPHABET.length);

function randomCode(random: Random): string {
  const alphabet = BACKUP_CODE_ALPHABET;
  // Rejection sampling: only bytes below the largest multiple of 31 are used, so every character is equally likely.
  const limit = 256 - (256 % alphabet.length);
  let chars = "";
  while (chars.length < GROUPS * GROUP_LENGTH) {
    for (const b of random.bytes(16)) {
      if (b < limit && chars.length < GROUPS * GROUP_LENGTH) chars += alphabet[b % alphabet.length];
    }
  }
  const groups: string[] = [];
  for (let i = 0; i < GROUPS; i++) groups.push(chars.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH));
  return groups.join("-");
}

/** `n` distinct codes. */
export function generateBackupCodes(n = 10, random: Random = cryptoRandom): string[] {
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new RangeError("backup code count must be 1 to 100");
  const codes = new Set<string>();
  while (codes.size < n) codes.add(randomCode(random));
  return [...codes];
}

/** What is hashed: lower case, without spaces or dashes, so `ABCD EFGH JKMN` matches `abcd-efgh-jkmn`. */
export function normalizeBackupCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, "");
}

function digest(salt: Uint8Array, normalized: string): Uint8Array {
  const message = utf8Bytes(normalized);
  const input = new Uint8Array(salt.length + message.length);
  input.set(salt, 0);
  input.set(message, salt.length);
  return sha256(input);
}

export function hashBackupCode(code: string): string {
  const normalized = normalizeBackupCode(code);
  if (normalized === "") throw new TypeError("backup code is empty");
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `sha256$${bytesToHex(salt)}$${bytesToHex(digest(salt, normalized))}`;
}

/** Never throws: an empty code or a garbled stored value is false. */
export function verifyBackupCode(code: string, stored: string | null | undefined): boolean {
  if (typeof code !== "string" || typeof stored !== "string") return false;
  const parts = stored.split("$");
  if (parts.length !== 3 || parts[0] !== "sha256") return false;
  const salt = hexToBytes(parts[1]!);
  const hash = hexToBytes(parts[2]!);
  if (!salt || salt.length === 0 || !hash || hash.length !== 32) return false;
  const normalized = normalizeBackupCode(code);
  if (normalized === "") return false;
  return timingSafeEqual(digest(salt, normalized), hash);
}
