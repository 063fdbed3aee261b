// Password hashing (PBKDF2 via WebCrypto, so it runs natively on Node and on workerd) and the password policy.
// Stored form: `pbkdf2_sha256$<iterations>$<salt_b64>$<hash_b64>` (users.password_hash).
import { timingSafeEqual } from "./constant-time.ts";
import { base64ToBytes, bytesToBase64, utf8Bytes } from "./encoding.ts";

export const PASSWORD_ALGORITHM = "pbkdf2_sha256";
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
export const DEFAULT_PASSWORD_ITERATIONS = 600_000;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** A stored count above this is treated as garbled: a crafted row must not pin a CPU for minutes. */
const MAX_ITERATIONS = 10_000_000;

/** Algorithms we can still verify; anything but the current one asks for a rehash. */
const DIGESTS: Record<string, "SHA-1" | "SHA-256" | "SHA-512"> = {
  pbkdf2_sha256: "SHA-256",
  pbkdf2_sha512: "SHA-512",
  pbkdf2_sha1: "SHA-1",
};

export interface PasswordOptions {
  /** PBKDF2 iterations for new hashes, and the floor under which a verified hash needs a rehash. */
  iterations?: number;
}

export interface PasswordCheck {
  ok: boolean;
  /** Only ever true together with ok: the caller should store `hashPassword(pw)` in place of the old hash. */
  needsRehash: boolean;
}

// NFKC so the same password typed on different keyboards/platforms gives the same bytes (NIST SP 800-63B 5.1.1.2).
function normalize(password: string): string {
  return password.normalize("NFKC");
}

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  hash: "SHA-1" | "SHA-256" | "SHA-512",
  bytes: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", utf8Bytes(normalize(password)), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash, salt, iterations }, key, bytes * 8);
  return new Uint8Array(bits);
}

function targetIterations(opts: PasswordOptions): number {
  const iterations = opts.iterations ?? DEFAULT_PASSWORD_ITERATIONS;
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new RangeError(`password iterations must be a whole number from 1 to ${MAX_ITERATIONS}`);
  }
  return iterations;
}

export async function hashPassword(password: string, opts: PasswordOptions = {}): Promise<string> {
  const iterations = targetIterations(opts);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations, "SHA-256", KEY_BYTES);
  return `${PASSWORD_ALGORITHM}$${iterations}$${bytesToBase64(salt)}$${bytesToBase64(hash)}`;
}

interface ParsedHash {
  algorithm: string;
  digest: "SHA-1" | "SHA-256" | "SHA-512";
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 4) return null;
  const [algorithm, count, saltText, hashText] = parts as [string, string, string, string];
  const digest = Object.hasOwn(DIGESTS, algorithm) ? DIGESTS[algorithm] : undefined;
  if (!digest || !/^[1-9][0-9]{0,7}$/.test(count)) return null;
  const iterations = Number(count);
  const salt = base64ToBytes(saltText);
  const hash = base64ToBytes(hashText);
  if (iterations > MAX_ITERATIONS || !salt || !hash) return null;
  if (salt.length < 8 || salt.length > 64 || hash.length < 16 || hash.length > 64) return null;
  return { algorithm, digest, iterations, salt: new Uint8Array(salt), hash };
}

/** Never throws: a missing, unknown or garbled stored value is simply `ok: false`. */
export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
  opts: PasswordOptions = {},
): Promise<PasswordCheck> {
  const no = { ok: false, needsRehash: false };
  try {
    const target = targetIterations(opts);
    const parsed = typeof stored === "string" && typeof password === "string" ? parse(stored) : null;
    if (!parsed) return no;
    const actual = await derive(password, parsed.salt, parsed.iterations, parsed.digest, parsed.hash.length);
    if (!timingSafeEqual(actual, parsed.hash)) return no;
    return { ok: true, needsRehash: parsed.algorithm !== PASSWORD_ALGORITHM || parsed.iterations < target };
  } catch {
    return no;
  }
}

export interface PasswordProblem {
  code: "too_short" | "too_long" | "same_as_email";
  message: string;
}

/** Length rules (counted in characters, after normalisation) and "not the e-mail address". Empty list = fine. */
export function validatePasswordPolicy(password: string, email?: string | null): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  const normalized = normalize(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH) {
    problems.push({ code: "too_short", message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long` });
  }
  if (length > PASSWORD_MAX_LENGTH) {
    problems.push({ code: "too_long", message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long` });
  }
  if (email && normalized.trim().toLowerCase() === email.trim().toLowerCase()) {
    problems.push({ code: "same_as_email", message: "Password must not be the same as the email address" });
  }
  return problems;
}
