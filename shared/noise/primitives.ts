// The crypto functions of Noise_*_25519_ChaChaPoly_SHA256 (Noise specification revision 34, sections 4
// and 12), named as the specification names them. The primitives are @noble's (X25519 may be handed in:
// x25519.ts); only the nonce encoding and HKDF, which the specification defines itself, are written here.
import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { NoiseError } from "./noise-error.ts";
import { type KeyPair, nobleX25519, type X25519 } from "./x25519.ts";

export type { KeyPair };

/** Bytes of an X25519 key or shared secret. */
export const DHLEN = 32;
/** Bytes of a SHA-256 digest. */
export const HASHLEN = 32;
/** Bytes of a ChaCha20-Poly1305 key. */
export const KEYLEN = 32;
/** Bytes of a Poly1305 tag. */
export const TAGLEN = 16;
/** The largest Noise message, handshake or transport (section 3). */
export const MAX_MESSAGE = 65535;
/** 2^64-1: used only by REKEY, never for a message (section 5.1). */
export const MAX_NONCE = 2n ** 64n - 1n;

/** The key pair of an X25519 secret key. */
export function keyPairOf(secretKey: Uint8Array, x: X25519 = nobleX25519): KeyPair {
  if (secretKey.length !== DHLEN) throw new NoiseError("bad-key", `an X25519 secret key has ${DHLEN} bytes, not ${secretKey.length}`);
  return x.keyPair(secretKey.slice());
}

/** GENERATE_KEYPAIR(): a fresh X25519 key pair from WebCrypto's random source. */
export function generateKeyPair(x: X25519 = nobleX25519): KeyPair {
  return keyPairOf(crypto.getRandomValues(new Uint8Array(DHLEN)), x);
}

/** DH(key_pair, public_key): X25519. A low-order public key (all-zero result) is refused. */
export function dh(pair: KeyPair, publicKey: Uint8Array, x: X25519 = nobleX25519): Uint8Array {
  if (publicKey.length !== DHLEN) throw new NoiseError("bad-key", `an X25519 public key has ${DHLEN} bytes, not ${publicKey.length}`);
  try {
    return x.sharedSecret(pair, publicKey);
  } catch {
    throw new NoiseError("bad-key", "X25519 refused the public key (a low-order point)");
  }
}

/** ChaChaPoly's nonce: 32 bits of zeros, then n as a 64-bit little-endian integer (section 12.3). */
export function nonceBytes(n: bigint): Uint8Array {
  const nonce = new Uint8Array(12);
  new DataView(nonce.buffer).setBigUint64(4, n, true);
  return nonce;
}

/** ENCRYPT(k, n, ad, plaintext): ciphertext followed by the 16-byte tag. */
export function encrypt(k: Uint8Array, n: bigint, ad: Uint8Array, plaintext: Uint8Array): Uint8Array {
  return chacha20poly1305(k, nonceBytes(n), ad).encrypt(plaintext);
}

/** DECRYPT(k, n, ad, ciphertext): the plaintext, or a "bad-mac" NoiseError. */
export function decrypt(k: Uint8Array, n: bigint, ad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  try {
    return chacha20poly1305(k, nonceBytes(n), ad).decrypt(ciphertext);
  } catch {
    throw new NoiseError("bad-mac", "the message failed authentication");
  }
}

/** REKEY(k): the first 32 bytes of ENCRYPT(k, maxnonce, zerolen, zeros) (section 4.2). */
export function rekeyKey(k: Uint8Array): Uint8Array {
  return encrypt(k, MAX_NONCE, new Uint8Array(0), new Uint8Array(KEYLEN)).slice(0, KEYLEN);
}

/** HASH(data): SHA-256. */
export function hash(...data: Uint8Array[]): Uint8Array {
  return sha256(concatBytes(...data));
}

/**
 * HKDF(chaining_key, input_key_material, num_outputs) of section 4.3, over HMAC-SHA256:
 * temp_key = HMAC(ck, ikm); output1 = HMAC(temp_key, 0x01); output_i = HMAC(temp_key, output_{i-1} || i).
 */
export function hkdf(chainingKey: Uint8Array, inputKeyMaterial: Uint8Array, outputs: 2): [Uint8Array, Uint8Array];
export function hkdf(chainingKey: Uint8Array, inputKeyMaterial: Uint8Array, outputs: 3): [Uint8Array, Uint8Array, Uint8Array];
export function hkdf(chainingKey: Uint8Array, inputKeyMaterial: Uint8Array, outputs: 2 | 3): Uint8Array[] {
  const tempKey = hmac(sha256, chainingKey, inputKeyMaterial);
  const result: Uint8Array[] = [];
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 1; i <= outputs; i++) {
    previous = hmac(sha256, tempKey, concatBytes(previous, Uint8Array.of(i)));
    result.push(previous);
  }
  return result;
}
