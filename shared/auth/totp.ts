// Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 30-second steps, 6 digits,
// the parameters every authenticator app assumes when the otpauth URI says nothing else.
import { hmac } from "@noble/hashes/hmac.js";
import { sha1 } from "@noble/hashes/legacy.js";
import { cryptoRandom, type Random } from "../clock.ts";
import { timingSafeEqualString } from "./constant-time.ts";
import { base32ToBytes, bytesToBase32 } from "./encoding.ts";

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;

export interface TotpOptions {
  /** 6 (default) to 8. */
  digits?: number;
  stepSeconds?: number;
}

export interface VerifyTotpOptions extends TotpOptions {
  /** Steps accepted either side of the current one, for clock drift. Default 1. */
  window?: number;
  /** Last step accepted for this user (users.mfa_last_step): that step and earlier ones are refused. */
  lastStep?: number | null;
}

export type TotpCheck = { ok: true; step: number } | { ok: false; step: null };

function options(opts: TotpOptions): { digits: number; stepSeconds: number } {
  const digits = opts.digits ?? TOTP_DIGITS;
  const stepSeconds = opts.stepSeconds ?? TOTP_STEP_SECONDS;
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) throw new RangeError("TOTP digits must be 6, 7 or 8");
  if (!Number.isInteger(stepSeconds) || stepSeconds < 1) throw new RangeError("TOTP step must be a whole number of seconds");
  return { digits, stepSeconds };
}

/** A new shared secret (default 160 bits, RFC 4226's recommendation), base32 without padding. */
export function generateTotpSecret(bytes = 20, random: Random = cryptoRandom): string {
  if (!Number.isInteger(bytes) || bytes < 10 || bytes > 64) throw new RangeError("TOTP secret must be 10 to 64 bytes");
  return bytesToBase32(random.bytes(bytes));
}

/** The RFC 6238 time step T for a Unix time in milliseconds. */
export function totpStep(timeMs: number, stepSeconds = TOTP_STEP_SECONDS): number {
  return Math.floor(timeMs / 1000 / stepSeconds);
}

/** RFC 4226 HOTP value for one counter. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = new Uint8Array(8);
  const view = new DataView(message.buffer);
  view.setUint32(0, Math.floor(counter / 2 ** 32));
  view.setUint32(4, counter >>> 0);
  const mac = hmac(sha1, key, message);
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The code an authenticator shows at `timeMs`. Throws on a secret that is not base32. */
export function totpCode(secretBase32: string, timeMs: number, opts: TotpOptions = {}): string {
  const { digits, stepSeconds } = options(opts);
  const key = base32ToBytes(secretBase32);
  if (!key || key.length === 0) throw new TypeError("TOTP secret is not base32");
  return hotp(key, totpStep(timeMs, stepSeconds), digits);
}

/**
 * Checks `code` against the steps within ±window of `timeMs`. Spaces in the code are ignored; anything but
 * exactly `digits` digits is refused, as is a match on a step at or before `lastStep` (a replay).
 * On success store the returned step as the user's new last step. Never throws for a bad code or secret.
 */
export function verifyTotp(secretBase32: string, code: string, timeMs: number, opts: VerifyTotpOptions = {}): TotpCheck {
  const no: TotpCheck = { ok: false, step: null };
  const { digits, stepSeconds } = options(opts);
  const window = opts.window ?? 1;
  if (!Number.isInteger(window) || window < 0 || window > 10) throw new RangeError("TOTP window must be 0 to 10");
  if (typeof code !== "string") return no;
  const given = code.replace(/\s+/g, "");
  if (given.length !== digits || !/^[0-9]+$/.test(given)) return no;
  const key = typeof secretBase32 === "string" ? base32ToBytes(secretBase32) : null;
  if (!key || key.length === 0 || !Number.isFinite(timeMs)) return no;

  const current = totpStep(timeMs, stepSeconds);
  const lastStep = opts.lastStep ?? -1;
  let matched: number | null = null;
  // Every candidate is computed and compared, so the time taken does not say which step matched.
  for (let step = current - window; step <= current + window; step++) {
    if (step < 0) continue;
    const equal = timingSafeEqualString(hotp(key, step, digits), given);
    if (equal && step > lastStep && matched === null) matched = step;
  }
  return matched === null ? no : { ok: true, step: matched };
}

export interface OtpauthUriInput {
  secret: string;
  /** Usually the user's e-mail address. */
  account: string;
  /** The product name shown by the authenticator app. */
  issuer: string;
  digits?: number;
  stepSeconds?: number;
}

/** The Key URI Format authenticator apps read from a QR code. */
export function otpauthUri(input: OtpauthUriInput): string {
  const { digits, stepSeconds } = options(input);
  const secret = input.secret.replace(/\s+/g, "").replace(/=+$/, "").toUpperCase();
  // encodeURIComponent rather than URLSearchParams: some apps show a `+` literally instead of a space.
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`;
  const query = [
    `secret=${encodeURIComponent(secret)}`,
    `issuer=${encodeURIComponent(input.issuer)}`,
    "algorithm=SHA1",
    `digits=${digits}`,
    `period=${stepSeconds}`,
  ].join("&");
  return `otpauth://totp/${label}?${query}`;
}
