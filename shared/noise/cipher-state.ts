// CipherState (Noise specification section 5.1): a key k, possibly empty, and a nonce n. Without a key
// it passes data through (the start of a handshake); with one, every message uses the next n. n never
// reaches 2^64-1, which REKEY reserves: once it would, the state refuses every further message.
import { NoiseError } from "./noise-error.ts";
import { decrypt, encrypt, KEYLEN, MAX_NONCE, rekeyKey } from "./primitives.ts";

export class CipherState {
  #k: Uint8Array | undefined;
  #n = 0n;

  constructor(k?: Uint8Array) {
    if (k) this.initializeKey(k);
  }

  /** InitializeKey(key): k = key, n = 0. */
  initializeKey(k: Uint8Array): void {
    if (k.length !== KEYLEN) throw new NoiseError("bad-key", `a cipher key has ${KEYLEN} bytes, not ${k.length}`);
    this.#k = k.slice();
    this.#n = 0n;
  }

  hasKey(): boolean {
    return this.#k !== undefined;
  }

  /** The nonce the next message will use. */
  get nonce(): bigint {
    return this.#n;
  }

  /** SetNonce(nonce): for transports that deliver out of order, and for tests near the limit. */
  setNonce(n: bigint): void {
    if (n < 0n || n > MAX_NONCE) throw new RangeError(`a nonce is in 0..2^64-1, not ${n}`);
    this.#n = n;
  }

  /** EncryptWithAd(ad, plaintext). */
  encryptWithAd(ad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    if (!this.#k) return plaintext.slice();
    this.#refuseExhausted();
    const ciphertext = encrypt(this.#k, this.#n, ad, plaintext);
    this.#n++;
    return ciphertext;
  }

  /** DecryptWithAd(ad, ciphertext). On a bad MAC n is left as it was and "bad-mac" is thrown. */
  decryptWithAd(ad: Uint8Array, ciphertext: Uint8Array): Uint8Array {
    if (!this.#k) return ciphertext.slice();
    this.#refuseExhausted();
    const plaintext = decrypt(this.#k, this.#n, ad, ciphertext);
    this.#n++;
    return plaintext;
  }

  /** Rekey(): k = REKEY(k). n is unchanged. */
  rekey(): void {
    if (!this.#k) throw new NoiseError("out-of-order", "a cipher without a key cannot rekey");
    this.#k = rekeyKey(this.#k);
  }

  #refuseExhausted(): void {
    if (this.#n >= MAX_NONCE) throw new NoiseError("nonce-exhausted", "the nonce reached 2^64-1; this cipher is spent");
  }
}
