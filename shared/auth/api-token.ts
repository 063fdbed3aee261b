// Bearer tokens of the form `<word>_<prefix>_<secret>`: `svc_` for API tokens and service accounts, `inv_` for
// invites. The prefix is public and finds the row; the whole token is stored only as `{salt_hex}:{hmac_hex}`,
// an HMAC-SHA256 keyed by a per-token salt (spec 5.1).
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { cryptoRandom, type Random } from "../clock.ts";
import { timingSafeEqual } from "./constant-time.ts";
import { base64UrlToBytes, bytesToBase32, bytesToBase64Url, bytesToHex, hexToBytes, utf8Bytes } from "./encoding.ts";

export const API_TOKEN_WORD = "svc";
export const INVITE_TOKEN_WORD = "inv";

/** 5 bytes = exactly 8 base32 characters (40 bits: collisions stay rare; the unique index catches the rest). */
const PREFIX_BYTES = 5;
const PREFIX_LENGTH = 8;
const SECRET_BYTES = 32;
/** 32 bytes in unpadded base64url. */
const SECRET_LENGTH = 43;
const SALT_BYTES = 16;

export interface GeneratedToken {
  /** The plaintext, shown to the user once and never stored. */
  token: string;
  /** The public lookup part (api_tokens.prefix, invites.prefix). */
  prefix: string;
}

function checkWord(word: string): void {
  if (!/^[a-z][a-z0-9]{0,15}$/.test(word)) throw new TypeError(`token word must be lower-case letters and digits: ${word}`);
}

export function generateApiToken(word: string = API_TOKEN_WORD, random: Random = cryptoRandom): GeneratedToken {
  checkWord(word);
  const prefix = bytesToBase32(random.bytes(PREFIX_BYTES)).toLowerCase();
  const secret = bytesToBase64Url(random.bytes(SECRET_BYTES));
  return { token: `${word}_${prefix}_${secret}`, prefix };
}

/**
 * The prefix of a well-formed token of this kind, or null. Also how a bearer value is told apart from a JWT
 * (a JWT has dots and no such shape).
 */
export function parseApiToken(value: string, word: string = API_TOKEN_WORD): { prefix: string } | null {
  checkWord(word);
  if (typeof value !== "string" || value.length !== word.length + PREFIX_LENGTH + SECRET_LENGTH + 2) return null;
  if (!value.startsWith(`${word}_`)) return null;
  const prefix = value.slice(word.length + 1, word.length + 1 + PREFIX_LENGTH);
  const rest = value.slice(word.length + 1 + PREFIX_LENGTH);
  if (!/^[a-z2-7]{8}$/.test(prefix) || rest[0] !== "_") return null;
  const secret = base64UrlToBytes(rest.slice(1));
  if (!secret || secret.length !== SECRET_BYTES) return null;
  return { prefix };
}

function mac(salt: Uint8Array, token: string): Uint8Array {
  return hmac(sha256, salt, utf8Bytes(token));
}

/** `{salt_hex}:{hmac_hex}` over the whole token, with a fresh salt each call. */
export function hashApiToken(token: string): string {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `${bytesToHex(salt)}:${bytesToHex(mac(salt, token))}`;
}

/** Never throws: a malformed stored value is false. */
export function verifyApiToken(token: string, stored: string | null | undefined): boolean {
  if (typeof token !== "string" || typeof stored !== "string") return false;
  const parts = stored.split(":");
  if (parts.length !== 2) return false;
  const salt = hexToBytes(parts[0]!);
  const expected = hexToBytes(parts[1]!);
  if (!salt || salt.length < SALT_BYTES || salt.length > 64 || !expected || expected.length !== 32) return false;
  return timingSafeEqual(mac(salt, token), expected);
}
